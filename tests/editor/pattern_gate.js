// Runs every pattern on every pumped input, as the YAML language server compiles a pattern
// ('u' first, then without it), and prints the runs slower than the bound as JSON.
// Input on stdin: {"patterns": [...], "inputs": [[prefix, seed, suffix], ...], "size": n,
// "limit_ms": n}; each input is prefix + seed repeated to size + suffix.
"use strict";

function compiled(pattern) {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return new RegExp(pattern);
  }
}

const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const texts = job.inputs.map(([prefix, seed, suffix]) => {
    return prefix + seed.repeat(Math.ceil(job.size / seed.length)) + suffix;
  });
  const slow = [];
  let runs = 0;
  for (const pattern of job.patterns) {
    const expression = compiled(pattern);
    texts.forEach((text, index) => {
      const started = process.hrtime.bigint();
      expression.test(text);
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      runs += 1;
      if (elapsed > job.limit_ms) {
        slow.push({ pattern, input: job.inputs[index], ms: Math.round(elapsed) });
      }
    });
  }
  process.stdout.write(JSON.stringify({ runs, slow }));
});
