#!/usr/bin/env node
// The `mcp-risk` command's entry: it exists before the first build, so the link made at install time always has a
// target. The command itself is the built dist/cli.js.
import '../dist/cli.js';
