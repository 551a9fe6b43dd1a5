#pragma once
// Scaled transposing copies between column-major columns and a row-major block, for the solvers
// whose substitutions run on row-major right-hand sides (cholesky_columns.hpp, the tree factor of
// forward_dynamics.cpp). Eigen assigns a column-major matrix to a row-major one element by element
// (about five instructions per value, a tenth of dFD on the 60-chain); here square tiles of one
// SIMD packet per side are loaded as packets, transposed in registers (Eigen's ptranspose, the
// shuffles of whatever instruction set the build targets) and stored as packets.

#include <Eigen/Core>

// PacketBlock<__m256d, 4> drops the vector type's alignment attribute as a template argument, which
// is harmless here (its packets are loaded and stored unaligned) and which Eigen silences likewise
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif

namespace tendril {
namespace detail {

using Packet = Eigen::internal::packet_traits<double>::type;
constexpr Eigen::Index kPacketSize = Eigen::internal::packet_traits<double>::size;

}  // namespace detail

/// \brief dst[r * dst_stride + c] = scale * column(c)[r] for r < rows, c < cols: the columns of a
///        column-major source (column(c) returns a pointer to the contiguous values of source
///        column c) into the row-major rows x cols block at dst. Allocation-free.
template <typename ColumnPointer>
void copyColumnsToRows(ColumnPointer&& column, Eigen::Index rows, Eigen::Index cols, double scale,
                       double* dst, Eigen::Index dst_stride) {
  using namespace Eigen::internal;
  using detail::Packet;
  constexpr Eigen::Index P = detail::kPacketSize;
  const Eigen::Index tiled_rows = rows / P * P, tiled_cols = cols / P * P;
  const Packet factor = pset1<Packet>(scale);
  for (Eigen::Index c = 0; c < tiled_cols; c += P) {
    const double* source[P];
    for (Eigen::Index k = 0; k < P; ++k) source[k] = column(c + k);
    for (Eigen::Index r = 0; r < tiled_rows; r += P) {
      PacketBlock<Packet, P> tile;
      for (Eigen::Index k = 0; k < P; ++k) tile.packet[k] = ploadu<Packet>(source[k] + r);
      ptranspose(tile);
      for (Eigen::Index k = 0; k < P; ++k)
        pstoreu(dst + (r + k) * dst_stride + c, pmul(factor, tile.packet[k]));
    }
    for (Eigen::Index r = tiled_rows; r < rows; ++r) {
      for (Eigen::Index k = 0; k < P; ++k) dst[r * dst_stride + c + k] = scale * source[k][r];
    }
  }
  for (Eigen::Index c = tiled_cols; c < cols; ++c) {
    const double* const source = column(c);
    for (Eigen::Index r = 0; r < rows; ++r) dst[r * dst_stride + c] = scale * source[r];
  }
}

/// \brief column(c)[r] = scale * src[r * src_stride + c] for r < rows, c < cols: the inverse of
///        copyColumnsToRows() (column(c) returns a pointer to the contiguous values of destination
///        column c). Allocation-free.
template <typename ColumnPointer>
void copyRowsToColumns(const double* src, Eigen::Index src_stride, Eigen::Index rows,
                       Eigen::Index cols, double scale, ColumnPointer&& column) {
  using namespace Eigen::internal;
  using detail::Packet;
  constexpr Eigen::Index P = detail::kPacketSize;
  const Eigen::Index tiled_rows = rows / P * P, tiled_cols = cols / P * P;
  const Packet factor = pset1<Packet>(scale);
  for (Eigen::Index c = 0; c < tiled_cols; c += P) {
    double* target[P];
    for (Eigen::Index k = 0; k < P; ++k) target[k] = column(c + k);
    for (Eigen::Index r = 0; r < tiled_rows; r += P) {
      PacketBlock<Packet, P> tile;
      for (Eigen::Index k = 0; k < P; ++k)
        tile.packet[k] = ploadu<Packet>(src + (r + k) * src_stride + c);
      ptranspose(tile);
      for (Eigen::Index k = 0; k < P; ++k) pstoreu(target[k] + r, pmul(factor, tile.packet[k]));
    }
    for (Eigen::Index r = tiled_rows; r < rows; ++r) {
      for (Eigen::Index k = 0; k < P; ++k) target[k][r] = scale * src[r * src_stride + c + k];
    }
  }
  for (Eigen::Index c = tiled_cols; c < cols; ++c) {
    double* const target = column(c);
    for (Eigen::Index r = 0; r < rows; ++r) target[r] = scale * src[r * src_stride + c];
  }
}

}  // namespace tendril

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
