// Pure module: read-only Set and Map classes for the exported word lists. Before these, any caller could run
// `HIGH_RISK_VERBS.add('nuke')` and silently change every other caller's verdicts in the same process.

function refuse(collection: string, method: string): never {
  throw new TypeError(`${collection} is read-only: ${method}() is not allowed; use createClassifier to add words`);
}

/**
 * A Set whose `add`, `delete` and `clear` throw a TypeError. It is still a real `Set` (`instanceof Set`,
 * iteration, `has`, `size`), so code written against the old mutable sets keeps working. Calling
 * `Set.prototype.add` on it directly still works, as it does on any frozen Set; that is why the classifier
 * never reads these exported sets, only private copies made when the package loads.
 */
export class FrozenSet<T> extends Set<T> {
  constructor(values: Iterable<T>) {
    super();
    // Set's own constructor would call the overridden add; fill through the parent's method instead.
    for (const value of values) super.add(value);
    Object.freeze(this);
  }

  /** Always throws: the set is read-only. */
  override add(_value: T): never {
    return refuse('This set', 'add');
  }

  /** Always throws: the set is read-only. */
  override delete(_value: T): never {
    return refuse('This set', 'delete');
  }

  /** Always throws: the set is read-only. */
  override clear(): never {
    return refuse('This set', 'clear');
  }
}

/** A Map whose `set`, `delete` and `clear` throw a TypeError; see `FrozenSet` for what it guards and what not. */
export class FrozenMap<K, V> extends Map<K, V> {
  constructor(entries: Iterable<readonly [K, V]>) {
    super();
    for (const [key, value] of entries) super.set(key, value);
    Object.freeze(this);
  }

  /** Always throws: the map is read-only. */
  override set(_key: K, _value: V): never {
    return refuse('This map', 'set');
  }

  /** Always throws: the map is read-only. */
  override delete(_key: K): never {
    return refuse('This map', 'delete');
  }

  /** Always throws: the map is read-only. */
  override clear(): never {
    return refuse('This map', 'clear');
  }
}
