#include "core/config/sha256.h"

#include <fstream>

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace tw::config {

namespace {
constexpr uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
}  // namespace

Sha256::Sha256()
    : m_state{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

namespace {

// The portable compression function, one 64-byte block at a time.
void portableBlocks(uint32_t *state, const uint8_t *chunk, size_t blocks) {
  for (; blocks > 0; --blocks, chunk += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = uint32_t(chunk[4 * i]) << 24 | uint32_t(chunk[4 * i + 1]) << 16 |
             uint32_t(chunk[4 * i + 2]) << 8 | uint32_t(chunk[4 * i + 3]);
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    state[0] += a; state[1] += b; state[2] += c; state[3] += d;
    state[4] += e; state[5] += f; state[6] += g; state[7] += h;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// The x86 SHA extensions (Intel since Goldmont and Ice Lake, AMD since Zen): several times the
// portable speed, which is what verifying a shard set's checksums and hashing data fingerprints
// spend their time on. The state lives as ABEF and CDGH, the layout sha256rnds2 works on.
__attribute__((target("sha,sse4.1"))) void shaNiBlocks(uint32_t *state, const uint8_t *chunk, size_t blocks) {
  const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(state)), 0xB1);  // CDAB
  __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(state + 4)), 0x1B);  // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);   // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);        // CDGH
  for (; blocks > 0; --blocks, chunk += 64) {
    const __m128i abefSaved = state0, cdghSaved = state1;
    __m128i w[4];
    for (int i = 0; i < 16; ++i) {
      __m128i &x = w[i & 3];
      if (i < 4) {
        x = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(chunk + 16 * i)), byteSwap);
      } else {
        // W[t-16] + s0(W[t-15]), + W[t-7], + s1(W[t-2]): four schedule words at once.
        const __m128i previous = w[(i + 3) & 3];
        x = _mm_sha256msg1_epu32(x, w[(i + 1) & 3]);
        x = _mm_add_epi32(x, _mm_alignr_epi8(previous, w[(i + 2) & 3], 4));
        x = _mm_sha256msg2_epu32(x, previous);
      }
      __m128i message = _mm_add_epi32(x, _mm_loadu_si128(reinterpret_cast<const __m128i *>(kRound + 4 * i)));
      state1 = _mm_sha256rnds2_epu32(state1, state0, message);
      message = _mm_shuffle_epi32(message, 0x0E);
      state0 = _mm_sha256rnds2_epu32(state0, state1, message);
    }
    state0 = _mm_add_epi32(state0, abefSaved);
    state1 = _mm_add_epi32(state1, cdghSaved);
  }
  tmp = _mm_shuffle_epi32(state0, 0x1B);        // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);     // DCHG
  state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // DCBA
  state1 = _mm_alignr_epi8(state1, tmp, 8);     // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i *>(state), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(state + 4), state1);
}

using BlockFunction = void (*)(uint32_t *, const uint8_t *, size_t);
// CPUID itself rather than __builtin_cpu_supports("sha"), which clang 15 does not know.
BlockFunction chooseBlocks() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  const bool sse41 = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1);
  const bool sha = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
  return sse41 && sha ? shaNiBlocks : portableBlocks;
}
const BlockFunction kBlocks = chooseBlocks();
#else
constexpr void (*kBlocks)(uint32_t *, const uint8_t *, size_t) = portableBlocks;
#endif

}  // namespace

bool Sha256::hardwareAccelerated() {
#if defined(__x86_64__) && defined(__GNUC__)
  return kBlocks == shaNiBlocks;
#else
  return false;
#endif
}

std::string Sha256::portableHexForTesting(const void *data, size_t size) {
  Sha256 h;
  h.m_portable = true;
  h.update(data, size);
  return h.hexDigest();
}

void Sha256::blocks(const uint8_t *chunk, size_t count) {
  if (m_portable) portableBlocks(m_state, chunk, count);
  else kBlocks(m_state, chunk, count);
}

void Sha256::update(const void *data, size_t size) {
  // An empty update may come with a null pointer, which memcpy must not be given even for 0 bytes.
  if (size == 0) return;
  auto bytes = static_cast<const uint8_t *>(data);
  m_totalBytes += size;
  if (m_bufferSize > 0) {
    const size_t take = std::min(size, sizeof(m_buffer) - m_bufferSize);
    std::memcpy(m_buffer + m_bufferSize, bytes, take);
    m_bufferSize += take;
    bytes += take;
    size -= take;
    if (m_bufferSize < sizeof(m_buffer)) return;
    blocks(m_buffer, 1);
    m_bufferSize = 0;
  }
  // Whole blocks straight from the caller's bytes; only a tail is copied.
  const size_t whole = size / 64;
  if (whole > 0) blocks(bytes, whole);
  bytes += whole * 64;
  size -= whole * 64;
  std::memcpy(m_buffer, bytes, size);
  m_bufferSize = size;
}

std::string Sha256::hexDigest() {
  uint64_t bits = m_totalBytes * 8;
  uint8_t pad = 0x80;
  update(&pad, 1);
  uint8_t zero = 0;
  while (m_bufferSize != 56) update(&zero, 1);
  uint8_t length[8];
  for (int i = 0; i < 8; ++i) length[i] = uint8_t(bits >> (56 - 8 * i));
  update(length, 8);
  static const char *hex = "0123456789abcdef";
  std::string out;
  for (uint32_t word : m_state)
    for (int shift = 28; shift >= 0; shift -= 4) out += hex[(word >> shift) & 0xf];
  return out;
}

std::string sha256Hex(const std::string &text) {
  Sha256 h;
  h.update(text);
  return h.hexDigest();
}

std::string fileSha256Hex(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  Sha256 hash;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) hash.update(buffer, static_cast<size_t>(in.gcount()));
  return hash.hexDigest();
}

}  // namespace tw::config
