/**
 * Headers of the platform, not of a project: the C standard library (C23), the C++ standard library (C++23), POSIX's
 * headers, and the folders a C library or the kernel keeps its own in (`sys/`, `bits/`, `linux/` …). An include of one
 * that no project file provides resolves as a builtin, like Python's standard library.
 */
const NAMES =
  'assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h setjmp.h signal.h ' +
  'stdalign.h stdarg.h stdatomic.h stdbit.h stdbool.h stdckdint.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h ' +
  'string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h ' +
  'algorithm any array atomic barrier bit bitset cassert ccomplex cctype cerrno cfenv cfloat charconv chrono cinttypes ' +
  'ciso646 climits clocale cmath codecvt compare complex concepts condition_variable coroutine csetjmp csignal ' +
  'cstdalign cstdarg cstdbool cstddef cstdint cstdio cstdlib cstring ctgmath ctime cuchar cwchar cwctype deque ' +
  'exception execution expected filesystem flat_map flat_set format forward_list fstream functional future generator ' +
  'initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale map mdspan memory ' +
  'memory_resource mutex new numbers numeric optional ostream print queue random ranges ratio regex scoped_allocator ' +
  'semaphore set shared_mutex source_location span spanstream sstream stack stacktrace stdexcept stdfloat stop_token ' +
  'streambuf string string_view strstream syncstream system_error thread tuple type_traits typeindex typeinfo ' +
  'unordered_map unordered_set utility valarray variant vector version ' +
  'aio.h arpa/inet.h cpio.h dirent.h dlfcn.h fcntl.h fmtmsg.h fnmatch.h ftw.h glob.h grp.h iconv.h langinfo.h ' +
  'libgen.h monetary.h mqueue.h ndbm.h net/if.h netdb.h netinet/in.h netinet/tcp.h nl_types.h poll.h pthread.h pwd.h ' +
  'regex.h sched.h search.h semaphore.h spawn.h strings.h stropts.h syslog.h tar.h termios.h trace.h ulimit.h ' +
  'unistd.h utime.h utmpx.h wordexp.h alloca.h malloc.h memory.h endian.h execinfo.h features.h getopt.h link.h ' +
  'windows.h winsock2.h ws2tcpip.h io.h direct.h process.h intrin.h';

const PLATFORM: ReadonlySet<string> = new Set(NAMES.split(' '));
const PLATFORM_FOLDER = /^(sys|bits|linux|asm|asm-generic|gnu|arpa|netinet|net|mach|machine|libkern|CoreFoundation|Foundation)\//;

/** True for a header of the C or C++ standard library, POSIX or the system (`stdio.h`, `vector`, `sys/types.h`). */
export const isPlatformHeader = (name: string): boolean => PLATFORM.has(name) || PLATFORM_FOLDER.test(name);
