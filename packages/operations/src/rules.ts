/**
 * The rule groups of @mcp-atlas/operations, published as `@mcp-atlas/operations/rules`: one frozen object per
 * concern, each naming the methodology area that explains it.
 */
