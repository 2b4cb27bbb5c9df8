import { describe, expect, it } from 'vitest';
import {
  createToolIndex,
  evaluateSearch,
  gradeHit,
  metricsOfGrades,
  parseSearchJobs,
  RouteInputError,
  type SearchHit,
  type SearchJob,
  searchTools,
} from '../src/index.js';
import { catalog } from './fixtures.js';

const sendJob: SearchJob = {
  id: 'mail-1',
  category: 'email',
  query: 'send an email',
  allow: 'change',
  groups: [['send'], ['email', 'e-mail']],
};
const IDEAL = 1 + 1 / Math.log2(3) + 1 / Math.log2(4) + 1 / Math.log2(5) + 1 / Math.log2(6);

function hit(tool: string, description = '', level: SearchHit['level'] = 'changes-data'): SearchHit {
  return { serverId: 's', tool, description, level, score: 1 };
}

describe('the judge: synonym groups, light stemming, risk allowance, prefer group', () => {
  it('fits when the name plus description has a word from every group', () => {
    expect(gradeHit(sendJob, hit('sendEmail'))).toBe(2);
    expect(gradeHit(sendJob, hit('notify', 'Sends an e-mail to a person.'))).toBe(2);
    expect(gradeHit(sendJob, hit('send_mail'))).toBe(0);
    expect(gradeHit(sendJob, hit('email_inbox'))).toBe(0);
  });

  it('matches with light stemming in both directions', () => {
    expect(gradeHit(sendJob, hit('sending_emails'))).toBe(2);
    const pluralJob: SearchJob = { ...sendJob, groups: [['queries']] };
    expect(gradeHit(pluralJob, hit('run_query'))).toBe(2);
  });

  it('matches phrases only as consecutive words, stop words included', () => {
    const prJob: SearchJob = { ...sendJob, groups: [['pull request']] };
    expect(gradeHit(prJob, hit('create_pull_request'))).toBe(2);
    expect(gradeHit(prJob, hit('pull', 'Pull the request.'))).toBe(0);
    const lightJob: SearchJob = { ...sendJob, groups: [['turn on']] };
    expect(gradeHit(lightJob, hit('lights', 'Turn on a light.'))).toBe(2);
  });

  it('respects the allowance: read takes read-only, change also changes-data, any every level', () => {
    const job = (allow: SearchJob['allow']): SearchJob => ({ ...sendJob, allow });
    expect(gradeHit(job('read'), hit('send_email', '', 'read-only'))).toBe(2);
    expect(gradeHit(job('read'), hit('send_email', '', 'changes-data'))).toBe(0);
    expect(gradeHit(job('change'), hit('send_email', '', 'changes-data'))).toBe(2);
    expect(gradeHit(job('change'), hit('send_email', '', 'high-risk'))).toBe(0);
    expect(gradeHit(job('any'), hit('send_email', '', 'high-risk'))).toBe(2);
  });

  it('gives grade 1 to a fit without the prefer group and 2 with it', () => {
    const job: SearchJob = { ...sendJob, groups: [['sql', 'query']], prefer: ['postgres', 'postgresql'], allow: 'any' };
    expect(gradeHit(job, hit('run_query'))).toBe(1);
    expect(gradeHit(job, hit('run_query', 'Runs SQL on PostgreSQL.'))).toBe(2);
    expect(gradeHit(job, hit('list_tables'))).toBe(0);
  });
});

describe('metricsOfGrades, hand-computed', () => {
  it('scores five top-grade fits as 1 everywhere', () => {
    expect(metricsOfGrades([2, 2, 2, 2, 2])).toEqual({ p1: 1, p5: 1, ndcg5: 1, mrr: 1, hit5: 1 });
  });

  it('scores no results as 0 everywhere', () => {
    expect(metricsOfGrades([])).toEqual({ p1: 0, p5: 0, ndcg5: 0, mrr: 0, hit5: 0 });
  });

  it('a single top-grade fit at rank 2: nDCG = (1 / log2 3) / 2.94846 = 0.21399', () => {
    const metrics = metricsOfGrades([0, 2, 0, 0, 0]);
    expect(IDEAL).toBeCloseTo(2.948459, 6);
    expect(metrics).toEqual({ p1: 0, p5: 0.2, ndcg5: expect.closeTo(0.213986, 6), mrr: 0.5, hit5: 1 });
  });

  it('a plain fit gains half: grade 1 at rank 1 gives nDCG 0.5 / 2.94846 = 0.16958', () => {
    expect(metricsOfGrades([1, 0, 0, 0, 0]).ndcg5).toBeCloseTo(0.16958, 5);
    expect(metricsOfGrades([1, 1, 1, 1, 1]).ndcg5).toBeCloseTo(0.5, 12);
  });

  it('counts P@5 and hit@5 within the top 5 and MRR within the top 10 only', () => {
    expect(metricsOfGrades([0, 0, 0, 0, 0, 2])).toEqual({ p1: 0, p5: 0, ndcg5: 0, mrr: 1 / 6, hit5: 0 });
    expect(metricsOfGrades([0, 0, 0, 0, 0, 0, 0, 0, 0, 2]).mrr).toBeCloseTo(0.1, 12);
    expect(metricsOfGrades([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]).mrr).toBe(0);
    expect(metricsOfGrades([2, 0, 1, 0, 2, 2]).p5).toBeCloseTo(0.6, 12);
  });
});

describe('evaluateSearch', () => {
  const jobs: SearchJob[] = [
    sendJob,
    { id: 'mail-2', category: 'email', query: 'list email messages', allow: 'read', groups: [['list'], ['message']] },
    { id: 'files-1', category: 'files', query: 'read a file', allow: 'read', groups: [['read'], ['file']] },
  ];

  it('runs each job once through the search and averages per category and overall', () => {
    const asked: string[] = [];
    const answers: Record<string, SearchHit[]> = {
      'send an email': [hit('other'), hit('send_email')],
      'list email messages': [hit('list_messages', '', 'read-only')],
      'read a file': [],
    };
    const report = evaluateSearch(jobs, (query) => {
      asked.push(query);
      return answers[query] ?? [];
    });
    expect(asked).toEqual(['send an email', 'list email messages', 'read a file']);
    expect(report.jobCount).toBe(3);
    expect(report.set).toBeNull();
    expect(report.jobs.map((job) => [job.id, job.grades, job.firstFit, job.mrr])).toEqual([
      ['mail-1', [0, 2], 2, 0.5],
      ['mail-2', [2], 1, 1],
      ['files-1', [], null, 0],
    ]);
    expect(report.byCategory.email).toEqual({
      jobs: 2,
      p1: 0.5,
      p5: 0.2,
      ndcg5: expect.closeTo((0.213986 + 0.33916) / 2, 5),
      mrr: 0.75,
      hit5: 1,
    });
    expect(report.byCategory.files).toEqual({ jobs: 1, p1: 0, p5: 0, ndcg5: 0, mrr: 0, hit5: 0 });
    expect(report.overall.mrr).toBeCloseTo(0.5, 12);
    expect(report.overall.p1).toBeCloseTo(1 / 3, 12);
    expect(report.jobs[0]?.top).toEqual(['s/other', 's/send_email']);
  });

  it('grades the real search over the fixture catalog and records the set it was given', () => {
    const index = createToolIndex(catalog);
    const report = evaluateSearch(jobs, (query) => searchTools(index, query), {
      set: { version: 'test', sha256: 'abc' },
    });
    expect(report.set).toEqual({ version: 'test', sha256: 'abc' });
    expect(report.jobs.map((job) => job.p1)).toEqual([1, 1, 1]);
  });

  it('looks at the top 10 results only', () => {
    const report = evaluateSearch([sendJob], () => [
      ...Array.from({ length: 10 }, () => hit('other')),
      hit('send_email'),
    ]);
    expect(report.jobs[0]?.grades).toHaveLength(10);
    expect(report.jobs[0]?.mrr).toBe(0);
  });

  it('rejects a search that returns something other than hits, or is not a function', () => {
    expect(() => evaluateSearch([sendJob], () => [{ tool: 'x' }] as never)).toThrow(
      /job "mail-1": search must return an array of hits/,
    );
    expect(() => evaluateSearch([sendJob], () => null as never)).toThrow(RouteInputError);
    expect(() => evaluateSearch([sendJob], 'search' as never)).toThrow('search must be a function');
  });
});

describe('parseSearchJobs checks an evaluation set', () => {
  it('accepts the set object or a bare array, and copies the jobs', () => {
    const groups = [['a']];
    const [job] = parseSearchJobs({
      version: 'v0',
      jobs: [{ id: 'j', category: 'c', query: 'q', allow: 'any', groups, extra: 1 }],
    });
    expect(job).toEqual({ id: 'j', category: 'c', query: 'q', allow: 'any', groups: [['a']] });
    expect(job?.groups).not.toBe(groups);
    expect(parseSearchJobs([sendJob])).toEqual([sendJob]);
  });

  it.each<[string, unknown, string]>([
    ['no jobs array', { jobs: 3 }, 'Expected an array of jobs'],
    ['a job that is not an object', ['x'], 'job at index 0: must be an object'],
    ['a missing id', [{ ...sendJob, id: '' }], 'id must be a non-empty string'],
    ['a missing category', [{ ...sendJob, category: undefined }], 'job "mail-1": category must be'],
    ['a blank query', [{ ...sendJob, query: '  ' }], 'query must be a non-empty string'],
    ['an unknown allowance', [{ ...sendJob, allow: 'write' }], "allow must be 'read', 'change' or 'any'"],
    ['no groups', [{ ...sendJob, groups: [] }], 'groups must be a non-empty array'],
    ['an empty group', [{ ...sendJob, groups: [[]] }], 'groups must be a non-empty array'],
    ['a group word that is not a string', [{ ...sendJob, groups: [[3]] }], 'groups must be a non-empty array'],
    ['a group word with no letters', [{ ...sendJob, groups: [['--']] }], 'groups must be a non-empty array'],
    ['an empty prefer group', [{ ...sendJob, prefer: [] }], 'prefer must be a non-empty array'],
    ['a repeated id', [sendJob, sendJob], 'job "mail-1": id appears twice'],
  ])('rejects %s', (_label, value, message) => {
    expect(() => parseSearchJobs(value)).toThrow(message);
    try {
      parseSearchJobs(value);
    } catch (error) {
      expect((error as RouteInputError).code).toBe('invalid-jobs');
    }
  });
});
