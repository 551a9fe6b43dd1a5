// Tests for addCoordinateBlock (core/model/build_model.cpp): the diagonal blocks of K and D.

#include <gtest/gtest.h>

#include <vector>

#include "core/model/model.hpp"

namespace tendril {
namespace {

std::vector<std::pair<int, int>> pairs(const std::vector<CoordinateBlock>& blocks) {
  std::vector<std::pair<int, int>> out;
  for (const CoordinateBlock& b : blocks) out.emplace_back(b.idx, b.n);
  return out;
}

using Pairs = std::vector<std::pair<int, int>>;

TEST(CoordinateBlockTest, TouchingRangesStayApart) {
  // two divisions of one rod: consecutive coordinates, separate blocks
  std::vector<CoordinateBlock> blocks;
  addCoordinateBlock(blocks, 2, 3);
  addCoordinateBlock(blocks, 5, 4);
  addCoordinateBlock(blocks, 0, 2);
  EXPECT_EQ(pairs(blocks), (Pairs{{0, 2}, {2, 3}, {5, 4}}));
}

TEST(CoordinateBlockTest, RepeatedAndContainedRangesAddNothing) {
  // every Gauss point of a division adds the division's range again
  std::vector<CoordinateBlock> blocks;
  for (int k = 0; k < 5; ++k) addCoordinateBlock(blocks, 4, 6);
  addCoordinateBlock(blocks, 5, 2);
  EXPECT_EQ(pairs(blocks), (Pairs{{4, 6}}));
}

TEST(CoordinateBlockTest, OverlappingRangesMergeAcrossSeveralBlocks) {
  std::vector<CoordinateBlock> blocks;
  addCoordinateBlock(blocks, 10, 2);  // [10, 12)
  addCoordinateBlock(blocks, 0, 3);   // [0, 3)
  addCoordinateBlock(blocks, 5, 2);   // [5, 7)
  addCoordinateBlock(blocks, 14, 1);  // [14, 15)
  EXPECT_EQ(pairs(blocks), (Pairs{{0, 3}, {5, 2}, {10, 2}, {14, 1}}));
  addCoordinateBlock(blocks, 2, 9);  // [2, 11): shares coordinates with the first three
  EXPECT_EQ(pairs(blocks), (Pairs{{0, 12}, {14, 1}}));
  addCoordinateBlock(blocks, 13, 2);  // [13, 15): overlaps [14, 15) only
  EXPECT_EQ(pairs(blocks), (Pairs{{0, 12}, {13, 2}}));
}

}  // namespace
}  // namespace tendril
