/**
 * A view of `target` in which the properties of `overrides` replace the target's; every other property is the
 * target's own, its methods bound to the target (so SDK classes with private fields keep working).
 */
export function delegate<T extends object>(target: T, overrides: { readonly [key: string]: unknown }): T {
  return new Proxy(target, {
    get(t, prop) {
      if (typeof prop === 'string' && Object.prototype.hasOwnProperty.call(overrides, prop)) return overrides[prop];
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(t) : value;
    },
  });
}
