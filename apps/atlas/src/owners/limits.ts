// The owner forms' own limits. An owner's note is their words shown next to ours; how long it may be is the
// operating rule OWNER_NOTE_RULES of @mcp-atlas/operations/rules, and what else it may hold is the form's check
// (http/owner-intake.ts).

/** Largest body of an owner form (a server id, a note and a switch), in bytes. */
export const OWNER_BODY_MAX_BYTES = 4 * 1024;

/**
 * What a page must say next to an owner's note, so it is never read as ours: the owner wrote it, and the date
 * is when their token file last proved control.
 */
export const OWNER_NOTE_ATTRIBUTION = "The owner's own words, not mcp-atlas's; shown as written and not checked by us.";
