"""The runtime layer: is the application running, is its endpoint this host's, does it answer.

It starts from an ``Availability`` (``hermes_decl.resolver``) and reads the application's runtime
file (``liveness``), probes its MCP endpoint (``probe``/``aprobe`` over one sans-I/O conversation,
``probe_flow`` with ``http_wire``'s framing) and decides a ``Status`` (``status``, deciding in
``status_decision``) and a plugin's presence (``presence``). ``hermes_decl.resolver.liveness``,
``.probe`` and ``.status`` are the old addresses and stay.
"""
