/**
 * Loads and stores of the kernels' arrays, by index: 64-bit units and 32-bit words at a byte
 * offset of the module's memory. Inlined wherever they are used; no bounds checks (each
 * kernel's layout pads its arrays so that its reads stay inside them).
 */

// @ts-ignore: decorator
@inline
export function u64At(base: usize, i: i32): u64 {
  return load<u64>(base + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline
export function setU64(base: usize, i: i32, v: u64): void {
  store<u64>(base + (<usize>i << 3), v);
}

// @ts-ignore: decorator
@inline
export function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline
export function setI32(base: usize, i: i32, v: i32): void {
  store<i32>(base + (<usize>i << 2), v);
}
