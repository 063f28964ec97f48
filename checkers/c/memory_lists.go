package c

// The memory family's call lists. They are data, not code: each names
// standard (or very widely used) APIs by exact name, with the argument
// positions that matter.

// memAllocKind says what an allocating call promises.
type memAllocKind uint8

const (
	memMayFail memAllocKind = iota + 1 // returns NULL on failure
	memAborts                          // never returns NULL (aborts the process instead)
)

// memAllocators maps allocating calls to their failure behaviour.
var memAllocators = map[string]memAllocKind{
	"malloc": memMayFail, "calloc": memMayFail, "realloc": memMayFail, "reallocarray": memMayFail,
	"strdup": memMayFail, "strndup": memMayFail, "wcsdup": memMayFail, "_strdup": memMayFail,
	"aligned_alloc": memMayFail, "memalign": memMayFail, "valloc": memMayFail, "pvalloc": memMayFail,
	"OPENSSL_malloc": memMayFail, "OPENSSL_zalloc": memMayFail, "OPENSSL_strdup": memMayFail,
	"OPENSSL_realloc": memMayFail, "CRYPTO_malloc": memMayFail, "CRYPTO_zalloc": memMayFail,
	"g_try_malloc": memMayFail, "g_try_malloc0": memMayFail, "g_try_realloc": memMayFail,
	"av_malloc": memMayFail, "av_mallocz": memMayFail, "PyMem_Malloc": memMayFail,
	"kmalloc": memMayFail, "kzalloc": memMayFail, "kcalloc": memMayFail,

	"xmalloc": memAborts, "xcalloc": memAborts, "xrealloc": memAborts, "xstrdup": memAborts,
	"xstrndup": memAborts, "xmemdupz": memAborts, "xzalloc": memAborts, "xmallocz": memAborts,
	"g_malloc": memAborts, "g_malloc0": memAborts, "g_realloc": memAborts, "g_strdup": memAborts,
	"g_strndup": memAborts, "zmalloc": memAborts, "zcalloc": memAborts, "zrealloc": memAborts,
	"zstrdup": memAborts, "emalloc": memAborts, "ecalloc": memAborts, "estrdup": memAborts,
}

// memReallocators take the old block as their first argument.
var memReallocators = map[string]bool{
	"realloc": true, "reallocarray": true, "OPENSSL_realloc": true, "g_try_realloc": true,
	"xrealloc": true, "g_realloc": true, "zrealloc": true, "CRYPTO_realloc": true, "av_realloc": true,
	"PyMem_Realloc": true,
}

// memAllocSizeArgs maps memAllocators whose size is one expression to its
// argument index (calloc and reallocarray multiply with a check and are
// left out on purpose).
var memAllocSizeArgs = map[string]int{
	"malloc": 0, "realloc": 1, "alloca": 0, "__builtin_alloca": 0, "_alloca": 0, "xmalloc": 0,
	"xrealloc": 1, "OPENSSL_malloc": 0, "OPENSSL_zalloc": 0, "OPENSSL_realloc": 1, "g_malloc": 0,
	"g_malloc0": 0, "g_realloc": 1, "zmalloc": 0, "zrealloc": 1, "kmalloc": 0, "kzalloc": 0,
	"aligned_alloc": 1, "memalign": 1, "valloc": 0, "av_malloc": 0, "av_mallocz": 0,
}

// memMaybeNull lists calls that return NULL to report failure or absence.
// getenv belongs to the input family.
var memMaybeNull = map[string]bool{
	"fopen": true, "fdopen": true, "freopen": true, "tmpfile": true, "popen": true, "fmemopen": true,
	"opendir": true, "fdopendir": true, "readdir": true, "getpwnam": true, "getpwuid": true,
	"getgrnam": true, "getgrgid": true, "getpwent": true, "getspnam": true, "gethostbyname": true,
	"gethostbyaddr": true, "localtime": true, "gmtime": true, "ctime": true, "strchr": true,
	"strrchr": true, "strstr": true, "strcasestr": true, "strpbrk": true, "memchr": true, "memrchr": true,
	"strtok": true, "dlopen": true, "dlsym": true, "realpath": true, "getcwd": true, "getlogin": true,
	"ttyname": true, "setlocale": true, "inet_ntop": true, "mmap": true, "bsearch": true, "tmpnam": true,
	"wcschr": true, "wcsrchr": true, "wcsstr": true, "if_indextoname": true,
}

// memDeallocators release the block passed as their first argument.
var memDeallocators = map[string]bool{
	"free": true, "cfree": true, "g_free": true, "OPENSSL_free": true, "CRYPTO_free": true,
	"kfree": true, "kvfree": true, "vfree": true, "zfree": true, "av_free": true, "PyMem_Free": true,
	"xmlFree": true, "efree": true, "sdsfree": true,
}

// memDerefArgs maps calls that read or write through pointer arguments to
// those arguments' indices: passing NULL (or a freed block) crashes.
var memDerefArgs = map[string][]int{
	"memset": {0}, "memcpy": {0, 1}, "memmove": {0, 1}, "memcmp": {0, 1}, "bzero": {0},
	"explicit_bzero": {0}, "strcpy": {0, 1}, "strncpy": {0, 1}, "strcat": {0, 1}, "strncat": {0, 1},
	"stpcpy": {0, 1}, "strlen": {0}, "strcmp": {0, 1}, "strncmp": {0, 1}, "strcasecmp": {0, 1},
	"strncasecmp": {0, 1}, "strchr": {0}, "strrchr": {0}, "strstr": {0, 1}, "strspn": {0, 1},
	"strcspn": {0, 1}, "strpbrk": {0, 1}, "strdup": {0}, "strndup": {0}, "strcoll": {0, 1},
	"sprintf": {0, 1}, "vsprintf": {0, 1}, "snprintf": {0, 2}, "vsnprintf": {0, 2}, "printf": {0},
	"fprintf": {0, 1}, "vfprintf": {0, 1}, "fputs": {0, 1}, "puts": {0}, "fputc": {1}, "putc": {1},
	"fgets": {0, 2}, "fgetc": {0}, "getc": {0}, "fread": {0, 3}, "fwrite": {0, 3}, "fclose": {0},
	"fseek": {0}, "fseeko": {0}, "ftell": {0}, "ftello": {0}, "rewind": {0}, "fscanf": {0, 1},
	"sscanf": {0, 1}, "feof": {0}, "ferror": {0}, "fileno": {0}, "setvbuf": {0}, "fflush_unlocked": {0},
	"readdir": {0}, "closedir": {0}, "dirfd": {0}, "pclose": {0}, "strftime": {0, 2, 3}, "mktime": {0},
	"asctime": {0}, "atoi": {0}, "atol": {0}, "atoll": {0}, "atof": {0}, "strtol": {0}, "strtoul": {0},
	"strtoll": {0}, "strtoull": {0}, "strtod": {0}, "wcslen": {0}, "wcscpy": {0, 1}, "qsort": {0},
	"getline": {2}, "dlclose": {0},
}

// memKeepArgs are calls that neither keep nor free the pointers they are
// given (beyond memDerefArgs): passing an allocation to them is no hand-off.
var memKeepArgs = map[string]bool{
	"printf": true, "fprintf": true, "sprintf": true, "snprintf": true, "vprintf": true, "vfprintf": true,
	"vsprintf": true, "vsnprintf": true, "syslog": true, "puts": true, "fputs": true, "fwrite": true,
	"fread": true, "write": true, "read": true, "send": true, "recv": true, "pread": true, "pwrite": true,
	"strlcpy": true, "strlcat": true, "memchr": true, "strtok": true, "strtok_r": true, "sscanf": true,
	"fgets": true, "perror": true, "strerror_r": true, "inet_ntop": true, "inet_pton": true,
	"gethostname": true, "readlink": true, "getcwd": true, "realpath": true, "stat": true, "lstat": true,
	"open": true, "access": true, "unlink": true, "remove": true, "rename": true, "mkdir": true,
	"isalpha": true, "isdigit": true, "isspace": true, "toupper": true, "tolower": true,
}

// memNoReturn lists calls after which control does not continue.
var memNoReturn = map[string]bool{
	"exit": true, "_exit": true, "_Exit": true, "abort": true, "quick_exit": true, "err": true,
	"errx": true, "verr": true, "verrx": true, "longjmp": true, "siglongjmp": true, "_longjmp": true,
	"pthread_exit": true, "__assert_fail": true, "__builtin_unreachable": true, "__builtin_trap": true,
	"die": true, "die_errno": true, "BUG": true, "BUG_fl": true, "usage": true, "usage_with_options": true,
	"usage_msg_opt": true, "usage_msg_optf": true, "exit_cleanup": true, "rb_raise": true, "rb_exc_raise": true,
	"luaL_error": true, "lua_error": true, "croak": true, "Perl_croak": true, "g_error": true,
	"serverPanic": true, "redisPanic": true, "_serverPanic": true, "panic": true, "fatal": true,
}

// memNoReturnShape holds the first bytes and lengths of memNoReturn's
// names.
var memNoReturnShape = newWordShape(memKeys(memNoReturn))

// memAssertions continue only when their argument is true.
var memAssertions = map[string]bool{
	"assert": true, "ASSERT": true, "DEBUGASSERT": true, "g_assert": true, "serverAssert": true,
	"redisAssert": true, "assert_se": true, "_Static_assert": true, "static_assert": true,
	"g_return_if_fail": true, "g_return_val_if_fail": true, "DCHECK": true, "CHECK": true,
	"GOOGLE_CHECK": true, "GOOGLE_DCHECK": true, "BUG_ON_NOT": true, "zassert": true, "ASSERT_TRUE": true,
	"GTEST_ASSERT_TRUE": true, "ABSL_CHECK": true,
}

// memRefutations continue only when their argument is false.
var memRefutations = map[string]bool{"BUG_ON": true}

// memOutInit lists calls that write their first argument even though it is
// passed by value (macros).
var memOutInit = map[string]bool{"va_start": true, "va_copy": true, "setjmp": true, "sigsetjmp": true, "FD_ZERO": true}

// memTypeWords are the type keywords and standard typedefs that start the
// local declarations the uninit and vla rules look at.
var memTypeWords = []string{
	"char", "short", "int", "long", "unsigned", "signed", "float", "double", "bool", "_Bool",
	"size_t", "ssize_t", "off_t", "time_t", "pid_t", "uid_t", "gid_t", "mode_t", "socklen_t",
	"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
	"intptr_t", "uintptr_t", "ptrdiff_t", "wchar_t", "struct", "void", "enum", "u_char", "u_int",
}

// memWrites maps calls that write through a pointer argument to its index:
// what was stored where it points is gone afterwards.
var memWrites = map[string][]int{
	"memset": {0}, "memcpy": {0}, "memmove": {0}, "bzero": {0}, "explicit_bzero": {0}, "strcpy": {0},
	"strncpy": {0}, "strcat": {0}, "strncat": {0}, "stpcpy": {0}, "strlcpy": {0}, "strlcat": {0},
	"sprintf": {0}, "vsprintf": {0}, "snprintf": {0}, "vsnprintf": {0}, "fgets": {0}, "fread": {0},
	"read": {1}, "pread": {1}, "recv": {1}, "recvfrom": {1},
}
