#!/usr/bin/env bash
# Mutation-test the core modules one at a time, each against the test files that exercise it.
# Usage: tests/mutation/all.sh [module-name…]  (names from the table below; default: all of them)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# Tests of elapsed time, which the slower traced and mutated code fails whatever the mutant.
TIMED=--deselect=tests/test_status.py::test_fifty_concurrent_astatus_probes_of_silent_servers_end_within_one_deadline
declare -A TESTS=(
    [versions]="hermes_decl/versions.py tests/test_versions.py"
    [availability]="hermes_decl/resolver/availability.py tests/test_availability.py tests/test_availability_language_1_1.py tests/test_overrides.py tests/test_mutants_availability.py tests/test_budget.py tests/test_author_mistakes.py tests/test_evaluation_pass.py"
    [matching]="hermes_decl/resolver/matching.py tests/test_matching.py tests/test_expand.py tests/test_mutants_matching.py tests/test_evaluation_pass.py"
    [expand]="hermes_decl/resolver/expand.py tests/test_expand.py tests/test_mutants_matching.py"
    [template]="hermes_decl/resolver/template.py tests/test_template.py tests/test_expand.py tests/test_mutants_matching.py tests/test_roots_network.py"
    [record]="hermes_decl/_record.py tests/test_record.py"
    [readers]="hermes_decl/resolver/readers.py tests/test_readers.py tests/test_mutants_readers.py"
    [errors]="hermes_decl/errors.py tests/test_mutants_errors.py tests/test_declaration.py tests/test_loader.py tests/test_rules_app_block.py tests/test_rules_kinds.py tests/test_rules_requires.py --deselect=tests/test_loader.py::test_deep_nesting_is_refused"
    [gates]="hermes_decl/gates.py tests/test_gates.py tests/test_mutants_gates.py tests/test_status.py $TIMED"
    [status]="hermes_decl/runtime/status.py tests/test_status.py tests/test_mutants_status.py $TIMED"
    [status_decision]="hermes_decl/runtime/status_decision.py tests/test_status.py tests/test_mutants_status.py $TIMED"
    [status_types]="hermes_decl/runtime/status_types.py tests/test_status.py tests/test_mutants_status.py tests/test_presence_and_ui.py $TIMED"
)
# Modules whose rules are built at import time, where mutmut's switch cannot reach: by_hand.py
# rewrites the module per mutant. The rule objects of text_rules import neither module, so their
# generated-value cases are left out.
declare -A BY_HAND=(
    [path_rules]=hermes_decl/models/path_rules.py
    [rules]=hermes_decl/models/rules.py
)
# The fastest files first: with -x a killed mutant stops at its first failure.
RULE_TESTS=(
    tests/test_rule_patterns.py
    tests/test_mutants_rules.py
    tests/test_mutants_rules_hints.py
    tests/test_mutants_path_leaves.py
    tests/test_mutants_path_rules.py
    tests/test_rules_paths.py
    tests/test_schema.py::test_committed_schema_is_current
    -k "not text_rules"
)
ORDER=(versions availability matching expand template record readers path_rules rules errors gates status status_decision status_types)
for name in "${@:-${ORDER[@]}}"; do
    if [[ -n ${BY_HAND[$name]:-} ]]; then
        "$here/../../.venv/bin/python" "$here/by_hand.py" --timeout-multiplier 20 --jobs "${BY_HAND_JOBS:-1}" \
            "${BY_HAND[$name]}" -- "${RULE_TESTS[@]}"
        continue
    fi
    # shellcheck disable=SC2086  # the table's entries are word lists
    "$here/run.sh" ${TESTS[$name]}
done
