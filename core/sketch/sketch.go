// Package sketch provides bounded-memory summaries of a stream of keys, for
// when counting every distinct key exactly would take too much memory:
//
//   - [HLL] estimates how many distinct keys the stream holds (HyperLogLog).
//   - [TopK] finds the keys with the most documents and counts their
//     documents and bytes (Space-Saving).
//
// Both take keys as pre-computed 64-bit hashes; the package does not hash
// values. Callers should use a well-mixed 64-bit hash such as xxhash64: the
// HyperLogLog estimate relies on every hash bit being uniform, and two values
// with one hash count as one key. Nor does the package count exactly: a caller
// that can afford to counts exactly up to its own limit on distinct keys and
// switches to these sketches past it. Each result states its error bound:
// [HLL.StdError] for the distinct count, [Item.DocsError] for a key's
// document count.
//
// Results are deterministic: the same keys added in the same order give the
// same results on every platform. Neither type is safe for concurrent use.
package sketch
