/* setcheck.c holds set_contains (parser.h, with jsec's ASCII fast path) to
 * tree-sitter's binary search on random sets of sorted, disjoint character
 * ranges, as the generator emits them, for every code point up to 0x3000,
 * a sample above, and negative lookaheads. For TestSetContains. */
#include "parser.h"

static bool reference_contains(TSCharacterRange *ranges, uint32_t len, int32_t lookahead) {
  uint32_t index = 0;
  uint32_t size = len - index;
  while (size > 1) {
    uint32_t half_size = size / 2;
    uint32_t mid_index = index + half_size;
    TSCharacterRange *range = &ranges[mid_index];
    if (lookahead >= range->start && lookahead <= range->end) {
      return true;
    } else if (lookahead > range->end) {
      index = mid_index;
    }
    size -= half_size;
  }
  TSCharacterRange *range = &ranges[index];
  return (lookahead >= range->start && lookahead <= range->end);
}

static uint32_t next(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* jsec_grammars_check_sets returns the number of (set, lookahead) pairs
 * on which the two disagree. */
long jsec_grammars_check_sets(unsigned seed, int sets) {
  static TSCharacterRange ranges[700];
  uint32_t s = seed ? seed : 1;
  long bad = 0;
  for (int k = 0; k < sets; k++) {
    uint32_t len = 1 + next(&s) % 699, at = next(&s) % 64;
    for (uint32_t i = 0; i < len; i++) {
      at += next(&s) % (i < 8 ? 24 : 400);      /* a gap (0: adjacent) */
      uint32_t width = next(&s) % (i < 8 ? 12 : 300);
      ranges[i].start = (int32_t)at;
      ranges[i].end = (int32_t)(at + width);
      at += width + 1;
    }
    for (int32_t c = -2; c < 0x3000; c++) {
      bad += set_contains(ranges, len, c) != reference_contains(ranges, len, c);
    }
    for (int i = 0; i < 2000; i++) {
      int32_t c = (int32_t)(next(&s) % 0x110000);
      bad += set_contains(ranges, len, c) != reference_contains(ranges, len, c);
    }
  }
  return bad;
}
