// Tests for core/sim/simulation_run.cpp: a simulation on its own thread publishing frames.

#include "core/sim/simulation_run.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/support/test_models.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace tendril {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPatience = std::chrono::seconds(30);

ModelPtr softCantilever() {
  return std::make_shared<const Model>(buildModel(test::example("soft_cantilever")));
}

SimulationOptions shortRun() {
  SimulationOptions options;
  options.t_end = 0.2;
  options.output_interval = 0.01;
  return options;
}

// polls from the test thread, as the GUI would
bool waitForFrames(const SimulationRun& run, std::size_t count) {
  const auto deadline = Clock::now() + kPatience;
  while (run.recording().size() < count && !run.isFinished() && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return run.recording().size() >= count;
}

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TEST(SimulationRunTest, PublishesEveryFrameInTimeOrderAndReportsCompletion) {
  std::mutex mutex;
  std::vector<double> published_times;
  int finish_calls = 0;
  RunOutcome reported;
  SimulationRun run(
      softCantilever(), shortRun(),
      [&](const FramePtr& frame) {
        const std::lock_guard lock(mutex);
        published_times.push_back(frame->t);
      },
      [&](const RunOutcome& outcome) {
        const std::lock_guard lock(mutex);
        ++finish_calls;
        reported = outcome;
      });
  run.wait();

  ASSERT_TRUE(run.isFinished());
  EXPECT_EQ(finish_calls, 1);
  EXPECT_TRUE(reported.completed) << reported.message;
  EXPECT_EQ(reported.message, "completed");
  ASSERT_TRUE(run.outcome().has_value());
  EXPECT_TRUE(run.outcome()->completed);
  EXPECT_DOUBLE_EQ(run.progress(), 1.0);

  const FrameRecording& recording = run.recording();
  ASSERT_EQ(recording.size(), 21u);  // t = 0, 0.01, ..., 0.2
  ASSERT_EQ(published_times.size(), recording.size());
  for (std::size_t i = 0; i < recording.size(); ++i) {
    EXPECT_EQ(recording.at(i)->index, i);
    EXPECT_DOUBLE_EQ(recording.at(i)->t, published_times[i]);
    EXPECT_FALSE(recording.at(i)->tips_W.empty());
    if (i > 0) {
      EXPECT_GT(published_times[i], published_times[i - 1]);
    }
  }
  EXPECT_NEAR(recording.at(20)->t, 0.2, 1e-12);
  EXPECT_EQ(run.latestFrame(), recording.back());
  // the rod droops under gravity, so the frames really differ
  EXPECT_GT((recording.back()->tips_W[0] - recording.at(0)->tips_W[0]).norm(), 1e-4);
}

TEST(SimulationRunTest, CancelStopsPromptlyAndKeepsTheFrames) {
  SimulationOptions options = shortRun();
  options.t_end = 1000.0;  // far longer than the test may take
  SimulationRun run(softCantilever(), options);
  ASSERT_TRUE(waitForFrames(run, 3));
  EXPECT_FALSE(run.isFinished());

  const auto cancelled_at = Clock::now();
  run.cancel();
  run.wait();
  EXPECT_LT(secondsSince(cancelled_at), 2.0);

  ASSERT_TRUE(run.outcome().has_value());
  EXPECT_TRUE(run.outcome()->cancelled);
  EXPECT_FALSE(run.outcome()->completed);
  EXPECT_NE(run.outcome()->message.find("cancelled at t ="), std::string::npos);
  EXPECT_GE(run.recording().size(), 3u);
  EXPECT_LT(run.progress(), 0.01);
}

TEST(SimulationRunTest, DestructorCancelsAndJoinsARunningSimulation) {
  SimulationOptions options = shortRun();
  options.t_end = 1000.0;
  auto finished = std::make_shared<std::atomic<bool>>(false);
  auto run = std::make_unique<SimulationRun>(softCantilever(), options, nullptr,
                                             [finished](const RunOutcome&) { *finished = true; });
  ASSERT_TRUE(waitForFrames(*run, 2));

  const auto destroyed_at = Clock::now();
  run.reset();
  EXPECT_LT(secondsSince(destroyed_at), 2.0);
  EXPECT_TRUE(*finished);  // the worker ended before the destructor returned
}

TEST(SimulationRunTest, DivergenceReportsTheTimeReachedAndKeepsTheFrames) {
  const SimulationOptions options = test::divergingRk4Options();
  SimulationRun run(softCantilever(), options);
  run.wait();

  ASSERT_TRUE(run.outcome().has_value());
  const RunOutcome outcome = *run.outcome();
  EXPECT_FALSE(outcome.completed);
  EXPECT_FALSE(outcome.cancelled);
  EXPECT_NE(outcome.message.find("diverged after t ="), std::string::npos) << outcome.message;
  ASSERT_GE(run.recording().size(), 1u);
  for (std::size_t i = 0; i < run.recording().size(); ++i) {
    EXPECT_TRUE(run.recording().at(i)->q.allFinite());
  }
}

#if defined(__linux__)
// the worker yields the core to the interface: a nice value of at least 10 on its own thread,
// while the thread that started it keeps its own
TEST(SimulationRunTest, WorkerRunsAtBackgroundPriority) {
  const int caller_nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  if (caller_nice >= 10) GTEST_SKIP() << "the tests already run at nice " << caller_nice;
  std::atomic<int> worker_nice{-100};
  SimulationRun run(softCantilever(), shortRun(), [&](const FramePtr&) {
    worker_nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  });
  run.wait();

  EXPECT_GE(worker_nice.load(), 10);
  EXPECT_EQ(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), caller_nice);
}
#endif

}  // namespace
}  // namespace tendril
