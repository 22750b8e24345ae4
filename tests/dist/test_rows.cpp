// The block split (loom/dist/rows.hpp): who owns which rows.
#include <gtest/gtest.h>

#include "loom/dist/rows.hpp"

namespace loom::dist {
namespace {

TEST(BlockRows, FirstRanksTakeTheRemainder) {
  // 10 rows over 4 ranks: 3, 3, 2, 2.
  EXPECT_EQ(block_rows(10, 4, 0), (Rows{0, 3}));
  EXPECT_EQ(block_rows(10, 4, 1), (Rows{3, 6}));
  EXPECT_EQ(block_rows(10, 4, 2), (Rows{6, 8}));
  EXPECT_EQ(block_rows(10, 4, 3), (Rows{8, 10}));
}

TEST(BlockRows, FewerRowsThanRanksLeaveTheLastRanksEmpty) {
  EXPECT_EQ(block_rows(2, 4, 1), (Rows{1, 2}));
  EXPECT_EQ(block_rows(2, 4, 2), (Rows{2, 2}));
  EXPECT_EQ(block_rows(2, 4, 3), (Rows{2, 2}));
  EXPECT_EQ(block_rows(0, 3, 0).size(), 0);
}

TEST(BlockRows, OwnerOfRowInvertsTheSplit) {
  for (std::int64_t n : {1, 7, 10, 64, 1001}) {
    for (int p : {1, 2, 3, 4, 7}) {
      for (std::int64_t i = 0; i < n; ++i) {
        const int r = owner_of_row(i, n, p);
        ASSERT_GE(i, block_rows(n, p, r).begin) << n << " " << p << " " << i;
        ASSERT_LT(i, block_rows(n, p, r).end) << n << " " << p << " " << i;
      }
    }
  }
}

}  // namespace
}  // namespace loom::dist
