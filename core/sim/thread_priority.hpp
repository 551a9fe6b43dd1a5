#pragma once

namespace tendril {

/// \brief Lowers the scheduling priority of the calling thread (Linux: nice +10), so that the
///        threads that draw the interface run first when a background computation and they
///        want the same core. Elsewhere, and when the system refuses, it does nothing.
/// \return whether the thread now runs at that priority or lower.
bool lowerCurrentThreadPriority();

}  // namespace tendril
