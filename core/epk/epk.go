// Package epk computes Azure Cosmos DB effective partition keys (EPKs): the
// hex strings the service derives from an item's partition key value to decide
// which physical partition stores the item.
//
// It implements the three hashing schemes exactly as the official SDKs do
// (azure-cosmos-dotnet-v3 PartitionKeyInternal, azure-sdk-for-java
// PartitionKeyInternalHelper, azure-sdk-for-js src/utils/hashing): hash V1,
// hash V2 ("large partition keys") and MultiHash (hierarchical keys). It also
// gives the evenly split range layout a new container starts with, finds
// the range an EPK falls in, and does the arithmetic of the key space by
// which a split is simulated: where a V2 EPK lies in it, and the EPK a
// fraction of the way between two.
//
// It does not read documents, parse JSON or extract values from key paths;
// callers pass the already extracted values. It does not enforce the
// service's limits (key size, three hierarchy levels). It does not model how
// ranges move after creation: a live container's boundaries change with
// splits and merges and come from its partition key ranges, not from
// [Ranges]. Range (non-hash) partitioning, a legacy kind, is not supported.
package epk

import (
	"math"
	"strings"
)

// Kind is the JSON type of one partition key component.
type Kind uint8

const (
	Undefined Kind = iota // the key path is missing from the document
	Null
	False
	True
	Number
	String
)

// Value is one component of a partition key value. The zero Value is
// Undefined. Kinds outside the list above hash as Undefined, as the .NET SDK
// does with unsupported values in non-strict mode.
type Value struct {
	Kind Kind
	Num  float64 // for Number
	Str  string  // for String
}

// Str returns a string component. s should be valid UTF-8, as strings from
// encoding/json and syscall/js are; invalid bytes are hashed as they are.
func Str(s string) Value { return Value{Kind: String, Str: s} }

// Num returns a number component. Every JSON number is a double to Cosmos DB:
// integers are hashed as their float64 value, so 1 and 1.0 are the same key
// while -0 and +0 are not. NaN and infinities cannot occur in JSON; they are
// hashed by their bit pattern.
func Num(f float64) Value { return Value{Kind: Number, Num: f} }

// Bool returns a boolean component.
func Bool(b bool) Value {
	if b {
		return Value{Kind: True}
	}
	return Value{Kind: False}
}

// NullValue is the JSON null component; UndefinedValue stands for a key path
// missing from the document (the zero Value).
var (
	NullValue      = Value{Kind: Null}
	UndefinedValue = Value{Kind: Undefined}
)

// Version is the hash version of a container's partition key definition.
type Version int

const (
	V1 Version = 1 // hash V1: strings cut to 100 characters; the default before May 2019
	V2 Version = 2 // hash V2 ("large partition keys"); required by MultiHash
)

// Type markers that precede each component, shared by all SDKs.
const (
	markerUndefined = 0x00
	markerNull      = 0x01
	markerFalse     = 0x02
	markerTrue      = 0x03
	markerNumber    = 0x05
	markerString    = 0x08
)

func marker(k Kind) byte {
	switch k {
	case Null:
		return markerNull
	case False:
		return markerFalse
	case True:
		return markerTrue
	case Number:
		return markerNumber
	case String:
		return markerString
	}
	return markerUndefined
}

const hexDigits = "0123456789ABCDEF"

// The hashes below avoid heap allocations other than the returned string:
// the hashers are incremental and stack-allocated, so no component is copied
// into a byte buffer, and the output is assembled in a fixed-size array (or a
// strings.Builder grown once). pkcalc hashes every sampled document, in the
// browser, where garbage collection is comparatively expensive.

// maxV1Chars is how much of a string V1 keeps: .NET cuts with
// String.Substring(0, 100), Java with substring and JS with substr, so the
// unit is UTF-16 code units, not runes or bytes. (The Rust SDK cuts at 100
// UTF-8 bytes instead, which differs for non-ASCII text; .NET wins.)
const maxV1Chars = 100

// replacementUTF8 is U+FFFD, which .NET's and Node's UTF-8 encoders emit for
// the lone high surrogate left when the cut splits a surrogate pair. (Java's
// String.getBytes writes '?' there; .NET wins.)
const replacementUTF8 = "\uFFFD"

// truncateV1 returns the part of s that hash V1 keeps: its first 100 UTF-16
// code units. split reports that the cut fell inside a surrogate pair; the
// SDKs then encode the dangling high surrogate as U+FFFD, which the caller
// appends.
func truncateV1(s string) (head string, split bool) {
	if len(s) <= maxV1Chars { // never more code units than bytes
		return s, false
	}
	units := 0
	for i, r := range s { // an invalid byte decodes as one U+FFFD: one unit
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > maxV1Chars {
			return s[:i], units < maxV1Chars
		}
		units += w
	}
	return s, false
}

// HashV1 returns the hash V1 effective partition key of key, in upper-case hex
// as the SDKs print it. A string keeps only its first 100 UTF-16 code units.
// The bytes hashed are, per component, its type marker then, for a string,
// its UTF-8 and a 0x00 terminator, and for a number, its IEEE-754 bits
// little-endian. The MurmurHash3 x86 32-bit hash of all components, as a
// number, followed by the truncated components, is then written in the
// SDKs' order-preserving binary encoding. An empty key gives "", the minimum
// EPK.
func HashV1(key ...Value) string {
	if len(key) == 0 {
		return ""
	}
	// 10 bytes for the hash and at most 102 per string component: one string
	// component, the usual case, fits.
	var buf [128]byte
	b := appendNumber(buf[:0], float64(sumV1(key)))
	for _, v := range key {
		b = appendComponentV1(b, v)
	}
	return hexString(b)
}

// appendComponentV1 appends a component's binary encoding as hash V1
// writes it after the hash.
func appendComponentV1(b []byte, v Value) []byte {
	switch v.Kind {
	case Number:
		return appendNumber(b, v.Num)
	case String:
		head, split := truncateV1(v.Str)
		return appendStringV1(b, head, split)
	}
	return append(b, marker(v.Kind))
}

// sumV1 returns the MurmurHash3 x86 32-bit hash of key's V1 hashing bytes.
func sumV1(key []Value) uint32 {
	m := newMurmur32(0)
	for _, v := range key {
		m.writeByte(marker(v.Kind))
		switch v.Kind {
		case Number:
			writeFloat32(&m, v.Num)
		case String:
			head, split := truncateV1(v.Str)
			m.writeString(head)
			if split {
				m.writeString(replacementUTF8)
			}
			m.writeByte(0x00)
		}
	}
	return m.sum()
}

func writeFloat32(m *murmur32, f float64) {
	u := math.Float64bits(f)
	for range 8 {
		m.writeByte(byte(u))
		u >>= 8
	}
}

func writeFloat128(m *murmur128, f float64) {
	var b [8]byte
	u := math.Float64bits(f)
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	m.write(b[:])
}

// appendNumber appends the binary encoding of f (.NET
// NumberPartitionKeyComponent.WriteForBinaryEncoding): the marker, then the
// double mapped to an unsigned integer whose order matches the numbers'
// order, written as its top 8 bits and then 7 bits per byte, each byte but
// the last with its low bit set. The .NET, Java, Python and Rust SDKs always
// write the last byte, even when it is 0x00 (0, 2, 0.5, ...); the JS SDK
// drops it, and the first payload byte of numbers below -2^769, so its V1
// EPKs for such numbers are shorter. .NET wins.
func appendNumber(dst []byte, f float64) []byte {
	u := math.Float64bits(f)
	if u < 1<<63 {
		u ^= 1 << 63 // positive: set the sign bit
	} else {
		u = ^u + 1 // negative: two's complement, so larger magnitudes sort first
	}
	dst = append(dst, markerNumber, byte(u>>56))
	u <<= 8
	var c byte
	for first := true; first || u != 0; first = false {
		if !first {
			dst = append(dst, c)
		}
		c = byte(u>>56) | 0x01
		u <<= 7
	}
	return append(dst, c&0xFE)
}

// appendStringV1 appends the binary encoding of the (already truncated)
// string head, plus U+FFFD when split (.NET
// StringPartitionKeyComponent.WriteForBinaryEncoding): the marker, then every
// UTF-8 byte plus one and a 0x00 terminator when there are at most 100 bytes,
// or else just the first 101 bytes plus one. The byte limit is on UTF-8 bytes
// in .NET, Java, Python and Rust; the JS SDK tests the UTF-16 length instead
// and so differs for non-ASCII strings of more than 100 bytes. .NET wins.
func appendStringV1(dst []byte, head string, split bool) []byte {
	n := len(head)
	if split {
		n += len(replacementUTF8)
	}
	short := n <= 100
	if !short {
		n = 101
	}
	dst = append(dst, markerString)
	for i := range n {
		var c byte
		if i < len(head) {
			c = head[i]
		} else {
			c = replacementUTF8[i-len(head)]
		}
		if c < 0xFF {
			c++
		}
		dst = append(dst, c)
	}
	if short {
		dst = append(dst, 0x00)
	}
	return dst
}

// hexString returns b in upper-case hex with a single allocation.
func hexString(b []byte) string {
	var sb strings.Builder
	sb.Grow(2 * len(b))
	for _, c := range b {
		sb.WriteByte(hexDigits[c>>4])
		sb.WriteByte(hexDigits[c&0x0F])
	}
	return sb.String()
}

// HashV2 returns the hash V2 effective partition key of key: 32 upper-case hex
// digits, the first no greater than 3. The bytes hashed are, per component,
// its type marker then, for a string, its whole UTF-8 and a 0xFF terminator,
// and for a number, its IEEE-754 bits little-endian. The MurmurHash3 x64
// 128-bit digest (h1 then h2, little-endian) is reversed and its first byte
// masked with 0x3F, keeping every EPK below "FF", the maximum. An empty key
// gives "", the minimum EPK.
func HashV2(key ...Value) string {
	if len(key) == 0 {
		return ""
	}
	m := newMurmur128(0)
	for _, v := range key {
		writeV2(&m, v)
	}
	var out [32]byte
	putEPKV2(out[:], &m)
	return string(out[:])
}

// MultiHash returns the effective partition key of a hierarchical key: each
// component hashed on its own as by [HashV2], the 32-digit results
// concatenated. A prefix of a key (its first levels only) addresses the EPK
// range [MultiHash(prefix), MultiHash(prefix)+"FF").
func MultiHash(key ...Value) string {
	if len(key) == 0 {
		return ""
	}
	var out [32]byte
	var sb strings.Builder
	sb.Grow(32 * len(key))
	for _, v := range key {
		m := newMurmur128(0)
		writeV2(&m, v)
		putEPKV2(out[:], &m)
		sb.Write(out[:])
	}
	return sb.String()
}

func writeV2(m *murmur128, v Value) {
	m.writeByte(marker(v.Kind))
	switch v.Kind {
	case Number:
		writeFloat128(m, v.Num)
	case String:
		m.writeString(v.Str)
		m.writeByte(0xFF)
	}
}

// putEPKV2 writes the V2 EPK of m's digest as 32 hex digits into dst. The
// digest bytes are h1 then h2 little-endian; reversed, that is h2 then h1
// big-endian.
func putEPKV2(dst []byte, m *murmur128) {
	h1, h2 := m.sum()
	h2 &^= 0xC0 << 56 // first byte & 0x3F
	for i := range 16 {
		c := byte(h2 >> (60 - 4*i))
		dst[i] = hexDigits[c&0x0F]
		c = byte(h1 >> (60 - 4*i))
		dst[16+i] = hexDigits[c&0x0F]
	}
}

// PrefixV2 returns the first 16 bits of HashV2(key...) (its first four hex
// digits) without building the EPK: bucketing millions of values by where
// they land needs only the top of the hash. An empty key gives 0.
func PrefixV2(key ...Value) uint16 { return uint16(HeadV2(key...) >> 48) }

// HeadV2 returns the first 64 bits of HashV2(key...) (its first 16 hex
// digits), without building the EPK; for a hierarchical key, HeadV2 of its
// first level is the head of its MultiHash. An empty key gives 0.
func HeadV2(key ...Value) uint64 {
	if len(key) == 0 {
		return 0
	}
	m := newMurmur128(0)
	for _, v := range key {
		writeV2(&m, v)
	}
	_, h2 := m.sum()
	return h2 &^ (0xC0 << 56)
}

// PrefixV1 returns the first four bytes of HashV1(key...)'s binary form
// (its first eight hex digits) as a big-endian number, without building
// the EPK. An empty key gives 0.
func PrefixV1(key ...Value) uint32 {
	if len(key) == 0 {
		return 0
	}
	// The hash's own encoding takes at least three bytes and each
	// component at least one, so four bytes always exist; only the first
	// component can reach them.
	var buf [128]byte
	b := appendNumber(buf[:0], float64(sumV1(key)))
	if len(b) < 4 {
		b = appendComponentV1(b, key[0])
	}
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
