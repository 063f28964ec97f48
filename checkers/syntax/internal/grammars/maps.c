//go:build !jsec_cpgo

/* maps.c holds ADVANCE_MAP's ASCII table (parser.h) to the generator's
 * linear search, and defines the switch that turns the table off. */
#include "parser.h"

/* jsec_linear_maps makes every ADVANCE_MAP search its pairs as the
 * generator's code does (tests; set through grammars.SetLinearMaps). */
int jsec_linear_maps;

static uint32_t next(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* lookup is what ADVANCE_MAP decides for one lookahead on the given map
 * with the given table: the state it moves to, or -1 to fall through. */
static int32_t lookup(const uint16_t *map, uint32_t n, uint32_t *ascii, int *ready, int32_t lookahead) {
  if (!jsec_linear_maps && lookahead >= 0 && lookahead < 128 &&
      (__atomic_load_n(ready, __ATOMIC_ACQUIRE) == 2 || jsec_ascii_map(map, n, ascii, ready))) {
    return ascii[lookahead] ? (int32_t)ascii[lookahead] - 1 : -1;
  }
  for (uint32_t i = 0; i < n; i += 2) {
    if (map[i] == lookahead) return map[i + 1];
  }
  return -1;
}

/* jsec_grammars_check_maps builds random maps (repeated characters,
 * characters past ASCII, states up to 65535) and returns the number of
 * lookaheads, from -2 to 300, for which the table and the search
 * disagree; the table is built on the first lookup, as in a lexer. */
long jsec_grammars_check_maps(unsigned seed, int maps) {
  static uint16_t map[2 * 64];
  uint32_t s = seed ? seed : 1;
  long bad = 0;
  for (int k = 0; k < maps; k++) {
    uint32_t pairs = 1 + next(&s) % 64;
    for (uint32_t i = 0; i < pairs; i++) {
      map[2 * i] = (uint16_t)(next(&s) % 8 == 0 ? 128 + next(&s) % 300 : next(&s) % 128);
      map[2 * i + 1] = (uint16_t)(next(&s) % 4 == 0 ? 65535 - next(&s) % 4 : next(&s) % 2000);
    }
    uint32_t ascii[128] = {0};
    int ready = 0;
    for (int32_t c = -2; c <= 300; c++) {
      int32_t want = -1;
      for (uint32_t i = 0; i < 2 * pairs; i += 2) {
        if (map[i] == c) {
          want = map[i + 1];
          break;
        }
      }
      bad += lookup(map, 2 * pairs, ascii, &ready, c) != want;
    }
  }
  return bad;
}

/* macro_site is one ADVANCE_MAP as the generated lexers have them, on a
 * map with a repeated character, characters past ASCII and NUL, and the
 * largest state. */
static const uint16_t site_map[] = {'a', 1, 'b', 2, 'a', 3, 200, 4, 0, 5, 'z', 65535, 127, 6, 300, 8};

static int32_t macro_site(int32_t lookahead) {
  TSStateId state = 7;
  ADVANCE_MAP('a', 1, 'b', 2, 'a', 3, 200, 4, 0, 5, 'z', 65535, 127, 6, 300, 8);
  return -1;
next_state:
  return state;
}

/* jsec_grammars_check_site returns the number of lookaheads, from -2 to
 * 400, for which macro_site disagrees with a search of site_map, asked
 * twice each (the first call builds the table). */
long jsec_grammars_check_site(void) {
  long bad = 0;
  for (int round = 0; round < 2; round++) {
    for (int32_t c = -2; c <= 400; c++) {
      int32_t want = -1;
      for (uint32_t i = 0; i < sizeof(site_map) / sizeof(site_map[0]); i += 2) {
        if (site_map[i] == c) {
          want = site_map[i + 1];
          break;
        }
      }
      bad += macro_site(c) != want;
    }
  }
  return bad;
}
