/**
 * @mcp-atlas/operations: the operating rules of an mcp-atlas service, the decisions that are not a
 * measurement of a server but say how the service runs its checks and what it shows. Pure: no I/O, no
 * clock; `now` is an argument. This file re-exports the public names and nothing else.
 */
