// The demo fleet's tools, written for the demo in the project's own words. They look like real services of
// several kinds so that risk levels, findings, categories, search and routing all have something to chew on.
import { z } from 'zod';

/** One tool a demo server registers. */
export interface DemoTool {
  name: string;
  description?: string;
  input: z.ZodRawShape | null;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

const id = { id: z.string().describe('The identifier of the item') };

export const NOTES_TOOLS: readonly DemoTool[] = [
  {
    name: 'list_notes',
    description: 'Lists the notes in a notebook, newest first.',
    input: { notebook: z.string().optional() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'search_notes',
    description: 'Finds notes whose title or body mentions the given words.',
    input: { query: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get_note',
    description: 'Returns one note with its full text and tags.',
    input: id,
    annotations: { readOnlyHint: true },
  },
  {
    name: 'create_note',
    description: 'Writes a new note into a notebook.',
    input: { title: z.string(), body: z.string() },
    annotations: { readOnlyHint: false },
  },
  {
    name: 'update_note',
    description: 'Replaces the title or body of an existing note.',
    input: { ...id, body: z.string() },
    annotations: { readOnlyHint: false },
  },
  {
    name: 'delete_note',
    description: 'Moves a note to the bin, where it stays for 30 days.',
    input: id,
    annotations: { destructiveHint: true },
  },
];

export const WEATHER_TOOLS: readonly DemoTool[] = [
  {
    name: 'get_forecast',
    description: 'Gives the hourly weather forecast for a city for the next three days.',
    input: { city: z.string() },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: 'get_current_conditions',
    description: 'Reports the temperature, wind and rain right now at a weather station.',
    input: { station: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'list_stations',
    description: 'Lists the weather stations near a place.',
    input: { near: z.string() },
    annotations: { readOnlyHint: true },
  },
];

export const LEDGER_TOOLS: readonly DemoTool[] = [
  {
    name: 'list_transactions',
    description: 'Lists the payments received and sent in a date range.',
    input: { from: z.string(), to: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get_balance',
    description: 'Shows the available balance of the account in each currency.',
    input: {},
    annotations: { readOnlyHint: true },
  },
  {
    name: 'create_invoice',
    description: 'Drafts an invoice for a customer; nothing is sent yet.',
    input: { customer: z.string(), amount: z.number() },
    annotations: { readOnlyHint: false },
  },
  {
    name: 'refund_payment',
    description: 'Returns a settled payment to the buyer.',
    input: { payment: z.string() },
    annotations: { destructiveHint: false },
  },
  {
    name: 'transfer_funds',
    description: 'Moves money from the account to a saved bank account.',
    input: { amount: z.number(), to: z.string() },
    annotations: {},
  },
];

export const CODEHOST_TOOLS: readonly DemoTool[] = [
  {
    name: 'search_repositories',
    description: 'Searches public and private repositories by name and topic.',
    input: { query: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get_file_contents',
    description: 'Reads a file from a repository at a branch or commit.',
    input: { repo: z.string(), path: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'list_pull_requests',
    description: 'Lists the open pull requests of a repository.',
    input: { repo: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'create_issue',
    description: 'Opens an issue with a title and a body.',
    input: { repo: z.string(), title: z.string() },
    annotations: { readOnlyHint: false },
  },
  {
    name: 'merge_pull_request',
    description: 'Merges a pull request into its base branch.',
    input: { repo: z.string(), number: z.number() },
    annotations: { readOnlyHint: false },
  },
  {
    name: 'run_workflow',
    description: 'Starts a CI workflow on a branch.',
    input: { repo: z.string(), workflow: z.string() },
    annotations: { readOnlyHint: false },
  },
];

export const CALENDAR_TOOLS: readonly DemoTool[] = [
  {
    name: 'list_events',
    description: 'Lists the events on a calendar between two dates.',
    input: { from: z.string(), to: z.string() },
  },
  {
    name: 'find_free_slot',
    description: 'Finds a time when all the given people are free.',
    input: { people: z.array(z.string()) },
  },
  {
    name: 'create_event',
    description: 'Puts a new event on the calendar and invites the guests.',
    input: { title: z.string(), start: z.string() },
  },
  { name: 'cancel_event', description: 'Cancels an event and tells the guests.', input: id },
];

export const WAREHOUSE_TOOLS: readonly DemoTool[] = [
  {
    name: 'list_tables',
    description: 'Lists the tables of the analytics warehouse with their row counts.',
    input: {},
    annotations: { readOnlyHint: true },
  },
  {
    name: 'describe_table',
    description: 'Shows the columns and types of one table.',
    input: { table: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'query_warehouse',
    description: 'Executes SQL you write against the warehouse and returns the rows.',
    input: { sql: z.string() },
    annotations: {},
  },
];

export const MAPS_TOOLS: readonly DemoTool[] = [
  {
    name: 'geocode_address',
    description: 'Turns a street address into latitude and longitude.',
    input: { address: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get_directions',
    description: 'Gives driving, walking or cycling directions between two places.',
    input: { from: z.string(), to: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'search_places',
    description: 'Finds shops, cafes and other places near a point.',
    input: { near: z.string(), kind: z.string() },
    annotations: { readOnlyHint: true },
  },
];

/** The tool list of the server whose tools change: before the change day. */
export const TICKETS_TOOLS_BEFORE: readonly DemoTool[] = [
  {
    name: 'list_tickets',
    description: 'Lists support tickets by status.',
    input: { status: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get_ticket',
    description: 'Returns one support ticket with its messages.',
    input: id,
    annotations: { readOnlyHint: true },
  },
  {
    name: 'reply_ticket',
    description: 'Sends a reply to the customer on a ticket.',
    input: { ...id, text: z.string() },
    annotations: { readOnlyHint: false },
  },
];

/** The same server after its change: a tool rewritten and a high-risk tool added (a rise in risk). */
export const TICKETS_TOOLS_AFTER: readonly DemoTool[] = [
  TICKETS_TOOLS_BEFORE[0] as DemoTool,
  TICKETS_TOOLS_BEFORE[1] as DemoTool,
  {
    name: 'reply_ticket',
    description: 'Sends a reply to the customer on a ticket, and can attach files.',
    input: { ...id, text: z.string(), files: z.array(z.string()).optional() },
    annotations: { readOnlyHint: false },
  },
  {
    name: 'delete_ticket',
    description: 'Permanently deletes a ticket and its messages.',
    input: id,
    annotations: { destructiveHint: true },
  },
];

/** A slow server's tools: a translation service without annotations or descriptions on one tool. */
export const TRANSLATE_TOOLS: readonly DemoTool[] = [
  {
    name: 'translate_text',
    description: 'Translates text between two languages.',
    input: { text: z.string(), to: z.string() },
  },
  { name: 'detect_language', description: 'Guesses the language a text is written in.', input: { text: z.string() } },
  { name: 'list_languages', input: null },
];

/** The flaky server's tools: a file share. */
export const FILES_TOOLS: readonly DemoTool[] = [
  {
    name: 'list_files',
    description: 'Lists the files in a shared folder.',
    input: { folder: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'download_file',
    description: 'Returns the contents of a shared file.',
    input: { path: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'upload_file',
    description: 'Stores a file in a shared folder.',
    input: { path: z.string(), content: z.string() },
    annotations: { readOnlyHint: false },
  },
  {
    name: 'share_folder',
    description: 'Grants access to a folder to another person.',
    input: { folder: z.string(), person: z.string() },
    annotations: { readOnlyHint: false },
  },
];

/** The member that breaks in the last hours before the demo serves: a mail inbox. */
export const INBOX_TOOLS: readonly DemoTool[] = [
  {
    name: 'list_messages',
    description: 'Lists the newest messages in a mailbox folder.',
    input: { folder: z.string().optional() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'read_message',
    description: 'Returns one mail message with its headers and body.',
    input: id,
    annotations: { readOnlyHint: true },
  },
  {
    name: 'send_message',
    description: 'Sends a mail message to the given recipients.',
    input: { to: z.array(z.string()), subject: z.string(), body: z.string() },
    annotations: { readOnlyHint: false },
  },
];

/** The member whose robots.txt later shuts every bot out: a recipe book. */
export const RECIPES_TOOLS: readonly DemoTool[] = [
  {
    name: 'search_recipes',
    description: 'Finds recipes by ingredient, cuisine or cooking time.',
    input: { query: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get_recipe',
    description: 'Returns one recipe with its ingredients and steps.',
    input: id,
    annotations: { readOnlyHint: true },
  },
];

/** The member its owner submitted, still in its observation week: a currency converter. */
export const CURRENCY_TOOLS: readonly DemoTool[] = [
  {
    name: 'convert_currency',
    description: 'Converts an amount between two currencies at the latest rate.',
    input: { amount: z.number(), from: z.string(), to: z.string() },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'list_currencies',
    description: 'Lists the currencies the converter knows.',
    input: {},
    annotations: { readOnlyHint: true },
  },
];
