// Type-level pins of the outside-service readers, the `./outside` entry (checked by `tsc`, which includes test/).
import { expectTypeOf } from 'vitest';
import type {
  DomainRegistrationRead,
  OsvBatchRead,
  OsvQuery,
  OutsideFailureReason,
  PackageVersionRead,
  RdapOptions,
} from '../src/outside.js';
import {
  queryOsvBatch,
  rdapDomainOf,
  readDomainRegistration,
  readNpmPackage,
  readPypiPackage,
} from '../src/outside.js';

expectTypeOf(readDomainRegistration).parameters.toEqualTypeOf<[hostOrUrl: string, options?: RdapOptions]>();
expectTypeOf(readDomainRegistration).returns.toEqualTypeOf<Promise<DomainRegistrationRead>>();
expectTypeOf<Extract<DomainRegistrationRead, { ok: true }>['registeredAt']>().toEqualTypeOf<string>();
expectTypeOf<Extract<DomainRegistrationRead, { ok: false }>['reason']>().toEqualTypeOf<OutsideFailureReason>();
expectTypeOf(rdapDomainOf).returns.toEqualTypeOf<string | null>();
expectTypeOf(readNpmPackage).returns.toEqualTypeOf<Promise<PackageVersionRead>>();
expectTypeOf(readPypiPackage).returns.toEqualTypeOf<Promise<PackageVersionRead>>();
expectTypeOf<PackageVersionRead['ecosystem']>().toEqualTypeOf<'npm' | 'PyPI'>();
expectTypeOf(queryOsvBatch).parameter(0).toEqualTypeOf<readonly OsvQuery[]>();
expectTypeOf(queryOsvBatch).returns.toEqualTypeOf<Promise<OsvBatchRead>>();
expectTypeOf<Extract<OsvBatchRead, { ok: true }>['findings'][number]['ids']>().toEqualTypeOf<string[]>();
expectTypeOf<'refused-own-domain'>().toExtend<OutsideFailureReason>();
