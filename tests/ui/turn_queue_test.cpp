#include "ui/turn_queue.hpp"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QTest>
#include <QTimer>
#include <memory>
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
  bool timer_fired = false;
  QTimer::singleShot(0, [&] { timer_fired = true; });
  EXPECT_TRUE(ran.empty());  // nothing inside the caller's event

  QCoreApplication::processEvents();
  EXPECT_EQ(ran, std::vector<int>({1}));
  QCoreApplication::processEvents();
  EXPECT_TRUE(timer_fired);
  EXPECT_EQ(ran, std::vector<int>({1, 3}));
  EXPECT_TRUE(QTest::qWaitFor([&] { return ran.size() == 3; }, 1000));
  EXPECT_EQ(ran, std::vector<int>({1, 3, 4}));
}

}  // namespace
}  // namespace tendril
