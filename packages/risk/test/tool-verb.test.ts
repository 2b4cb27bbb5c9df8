import { describe, expect, it } from 'vitest';
import { toolVerb } from '../src/index.js';

describe('toolVerb reads the first word, else the last, else the second of a prefixed name', () => {
  it.each([
    ['delete_page', 'delete'],
    ['pages_create', 'create'],
    ['get_pages_delete', 'get'],
    ['browser_navigate', 'navigate'],
    ['weather', null],
    ['github_create_issue', 'create'],
    ['zpa_delete_app_connector', 'delete'],
    ['acme_widget_report', null],
    ['acme_delete', 'delete'],
    ['acme_widget', null],
    ['', null],
    ['RunReport', 'run'],
  ])('%s -> %s', (name, verb) => {
    expect(toolVerb(name)).toBe(verb);
  });
});
