#include "ui/turn_queue.hpp"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QTest>
#include <QTimer>
#include <memory>
#include <set>
#include <vector>

namespace tendril {
namespace {

// jobs run in the order posted, one per turn of the event loop, with a due timer served between
// two of them; a job whose owner is gone is dropped
TEST(TurnQueue, RunsOneJobPerTurnInOrderAndDropsThoseOfDestroyedOwners) {
  QObject owner;
  auto doomed = std::make_unique<QObject>();
  std::vector<int> ran;
  TurnQueue& queue = TurnQueue::instance();
  queue.post(&owner, "first", [&] { ran.push_back(1); });
  queue.post(doomed.get(), "doomed", [&] { ran.push_back(2); });
  queue.post(&owner, "third", [&] { ran.push_back(3); });
  queue.post(&owner, "fourth", [&] { ran.push_back(4); });
  doomed.reset();
  constexpr int kTimer = 0;
  QTimer::singleShot(0, [&] { ran.push_back(kTimer); });
  EXPECT_TRUE(ran.empty());  // nothing inside the caller's event

  // one turn: the first job, and the timer (in either order), but not the next job
  QCoreApplication::processEvents();
  EXPECT_EQ(std::set<int>(ran.begin(), ran.end()), std::set<int>({1, kTimer}));
  ASSERT_EQ(ran.size(), 2u);
  QCoreApplication::processEvents();
  ASSERT_EQ(ran.size(), 3u);
  EXPECT_EQ(ran.back(), 3);
  EXPECT_TRUE(QTest::qWaitFor([&] { return ran.size() == 4; }, 1000));
  EXPECT_EQ(ran.back(), 4);
}

}  // namespace
}  // namespace tendril
