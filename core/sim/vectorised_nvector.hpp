#pragma once
// SUNDIALS' serial N_Vector operations, re-implemented on Eigen maps for the integrators' state.
// Debian's libsundials is built for generic x86-64 at -O2, where these loops run unvectorised at
// 10-13 instructions per entry; in a whole CVODE or IDAS run they were 13 % of the instructions.

#include <nvector/nvector_serial.h>

namespace tendril::detail {

/// \brief Replaces v's hot operations (linear sums, scaling, weighted norms, the fused linear
/// combinations) by vectorised ones with SUNDIALS' semantics. Vectors cloned from v afterwards,
/// which is how CVODE and IDAS make their work vectors, inherit them.
void useVectorisedOperations(N_Vector v);

}  // namespace tendril::detail
