#include "core/sim/thread_priority.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace tendril {

namespace {
// the completely fair scheduler weights nice 0 at 1024 and nice 10 at 110: a busy interface
// thread gets ~90 % of a core the worker shares, an idle one costs the worker nothing
constexpr int kBackgroundNice = 10;
}  // namespace

bool lowerCurrentThreadPriority() {
#if defined(__linux__)
  // on Linux the nice value belongs to the thread (PRIO_PROCESS with a thread id)
  const int current = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  if (current >= kBackgroundNice) return true;
  return setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kBackgroundNice) == 0;
#else
  return false;
#endif
}

}  // namespace tendril
