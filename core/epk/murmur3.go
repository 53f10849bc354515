package epk

import "math/bits"

// MurmurHash3 (Austin Appleby, public domain), the x86 32-bit and x64 128-bit
// variants, written as incremental hashers so that a partition key can be fed
// component by component without first being copied into a buffer. Both read
// their input as little-endian words, as the reference code does on x86.

// murmur32 is an incremental MurmurHash3_x86_32.
type murmur32 struct {
	h    uint32
	n    uint32 // bytes written; the reference mixes in the length mod 2^32
	tail uint32 // pending bytes, little-endian
	nt   uint   // number of pending bytes, 0..3
}

func newMurmur32(seed uint32) murmur32 { return murmur32{h: seed} }

func (m *murmur32) block(k uint32) {
	k *= 0xcc9e2d51
	k = bits.RotateLeft32(k, 15)
	k *= 0x1b873593
	m.h ^= k
	m.h = bits.RotateLeft32(m.h, 13)
	m.h = m.h*5 + 0xe6546b64
}

func (m *murmur32) writeByte(b byte) {
	m.n++
	m.tail |= uint32(b) << (8 * m.nt)
	m.nt++
	if m.nt == 4 {
		m.block(m.tail)
		m.tail, m.nt = 0, 0
	}
}

func (m *murmur32) writeString(s string) { write32(m, s) }

func write32[T string | []byte](m *murmur32, p T) {
	m.n += uint32(len(p))
	i := 0
	for ; m.nt != 0 && i < len(p); i++ {
		m.tail |= uint32(p[i]) << (8 * m.nt)
		m.nt++
		if m.nt == 4 {
			m.block(m.tail)
			m.tail, m.nt = 0, 0
		}
	}
	for ; i+4 <= len(p); i += 4 {
		m.block(uint32(p[i]) | uint32(p[i+1])<<8 | uint32(p[i+2])<<16 | uint32(p[i+3])<<24)
	}
	for ; i < len(p); i++ {
		m.tail |= uint32(p[i]) << (8 * m.nt)
		m.nt++
	}
}

func (m *murmur32) sum() uint32 {
	h := m.h
	if m.nt != 0 {
		k := m.tail * 0xcc9e2d51
		k = bits.RotateLeft32(k, 15)
		k *= 0x1b873593
		h ^= k
	}
	h ^= m.n
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

const (
	c1x64 = 0x87c37b91114253d5
	c2x64 = 0x4cf5ad432745937f
)

// murmur128 is an incremental MurmurHash3_x64_128.
type murmur128 struct {
	h1, h2 uint64
	n      uint64 // bytes written
	tail   [16]byte
	nt     int // number of pending bytes, 0..15
}

// newMurmur128 seeds both halves with seed, as the reference does; the SDKs
// use seed 0.
func newMurmur128(seed uint32) murmur128 {
	return murmur128{h1: uint64(seed), h2: uint64(seed)}
}

func (m *murmur128) block(k1, k2 uint64) {
	k1 *= c1x64
	k1 = bits.RotateLeft64(k1, 31)
	k1 *= c2x64
	m.h1 ^= k1
	m.h1 = bits.RotateLeft64(m.h1, 27)
	m.h1 += m.h2
	m.h1 = m.h1*5 + 0x52dce729

	k2 *= c2x64
	k2 = bits.RotateLeft64(k2, 33)
	k2 *= c1x64
	m.h2 ^= k2
	m.h2 = bits.RotateLeft64(m.h2, 31)
	m.h2 += m.h1
	m.h2 = m.h2*5 + 0x38495ab5
}

func (m *murmur128) writeByte(b byte) {
	m.n++
	m.tail[m.nt] = b
	m.nt++
	if m.nt == 16 {
		m.block(le64(m.tail[:8]), le64(m.tail[8:]))
		m.nt = 0
	}
}

func (m *murmur128) writeString(s string) { write128(m, s) }

func (m *murmur128) write(p []byte) { write128(m, p) }

func write128[T string | []byte](m *murmur128, p T) {
	m.n += uint64(len(p))
	if m.nt != 0 {
		// Key values are short and follow a type marker: most of them end
		// here, copied into the tail at once rather than byte by byte.
		k := copy(m.tail[m.nt:], p)
		if m.nt += k; m.nt < 16 {
			return
		}
		m.block(le64(m.tail[:8]), le64(m.tail[8:]))
		m.nt = 0
		p = p[k:]
	}
	for len(p) >= 16 {
		m.block(le64(p[:8]), le64(p[8:16]))
		p = p[16:]
	}
	m.nt = copy(m.tail[:], p)
}

// sum returns the two 64-bit halves; the reference writes h1 then h2, each
// little-endian, as the 16-byte digest.
func (m *murmur128) sum() (h1, h2 uint64) {
	h1, h2 = m.h1, m.h2
	// The tail's words, with the bytes past its end (left from earlier
	// blocks) masked off.
	k1, k2 := le64(m.tail[:8]), le64(m.tail[8:])
	if m.nt < 8 {
		k1 &= 1<<(8*m.nt) - 1
		k2 = 0
	} else {
		k2 &= 1<<(8*(m.nt-8)) - 1
	}
	if m.nt > 8 {
		k2 *= c2x64
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1x64
		h2 ^= k2
	}
	if m.nt > 0 {
		k1 *= c1x64
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2x64
		h1 ^= k1
	}
	h1 ^= m.n
	h2 ^= m.n
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	h1 += h2
	h2 += h1
	return h1, h2
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// le64 reads 8 bytes little-endian; p must hold at least 8.
func le64[T string | []byte](p T) uint64 {
	_ = p[7]
	return uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
		uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56
}
