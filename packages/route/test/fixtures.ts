// The project's own small catalog for unit tests, written for these tests (no corpus text). Each server
// has a clear job so rankings can be reasoned about by hand.
import type { IndexServer } from '../src/index.js';

/** A mail server that publishes annotations: its reading tools are read-only. */
export const mailServer: IndexServer = {
  id: 'mail.example',
  name: 'Example Mail',
  tools: [
    {
      name: 'send_message',
      description: 'Sends an email message to one or more people.',
      annotations: { readOnlyHint: false },
    },
    {
      name: 'list_messages',
      description: 'Lists email messages in a mailbox folder.',
      annotations: { readOnlyHint: true },
    },
    {
      name: 'read_message',
      description: 'Returns the body of one email message.',
      annotations: { readOnlyHint: true },
    },
    {
      name: 'delete_message',
      description: 'Moves an email message to the bin.',
      annotations: { destructiveHint: true },
    },
  ],
};

/** A calendar server without annotations: reading tools land at "changes data" (rule 7). */
export const calendarServer: IndexServer = {
  id: 'calendar.example',
  name: 'Example Calendar',
  tools: [
    { name: 'createEvent', description: 'Adds an event to a calendar.' },
    { name: 'listEvents', description: 'Lists upcoming calendar events in a date range.' },
    { name: 'find-free-slots', description: 'Finds open time slots when every attendee is free.' },
  ],
};

/** A files server with annotations, including one high-risk tool. */
export const filesServer: IndexServer = {
  id: 'files.example',
  tools: [
    {
      name: 'read_file',
      description: 'Reads a text file and returns its contents.',
      annotations: { readOnlyHint: true },
    },
    {
      name: 'write_file',
      description: 'Writes text to a file, replacing what was there.',
      annotations: { readOnlyHint: false },
    },
    { name: 'remove_file', description: 'Removes a file.', annotations: { destructiveHint: true } },
    { name: 'list_directory', description: 'Lists the files in a directory.', annotations: { readOnlyHint: true } },
  ],
};

/** A payments server: most of its tools are high risk by their verbs or nouns. */
export const paymentsServer: IndexServer = {
  id: 'pay.example',
  name: 'Example Payments',
  tools: [
    { name: 'refund_charge', description: 'Returns money for a card charge.' },
    { name: 'create_payment_link', description: 'Makes a link a buyer can pay through.' },
    { name: 'get_balance', description: 'Shows the account balance.', annotations: { readOnlyHint: true } },
  ],
};

/** The four servers above, in a fixed order. */
export const catalog: readonly IndexServer[] = [mailServer, calendarServer, filesServer, paymentsServer];

/** Two tools on one server, for the hand-computed BM25F figures in search.test.ts. */
export const invoiceServer: IndexServer = {
  id: 'invoices.example',
  tools: [
    { name: 'send_invoice', description: 'Sends an invoice.' },
    { name: 'list_invoices', description: 'Lists invoices for a customer.' },
  ],
};
