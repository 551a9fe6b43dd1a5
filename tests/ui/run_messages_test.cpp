// Tests for ui/run_messages.cpp: why a run stopped, in plain words, for every kind of reason
// simulate() reports.

#include "ui/run_messages.hpp"

#include <gtest/gtest.h>

namespace tendril {
namespace {

TEST(RunMessagesTest, EachSolverReasonIsSaidInPlainWordsWithTheTime) {
  const struct {
    const char* reason;
    const char* plain;
  } cases[] = {
      {"At t = 0 and h = 1e-10, the error test failed repeatedly or with |h| = hmin.",
       "could not keep its error within the tolerance"},
      {"At t = 0 and h = 0.001, the corrector convergence test failed repeatedly or with |h| = "
       "hmin.",
       "Newton iterations stopped converging"},
      {"the step size fell below 0.005 s (Newton did not converge)",
       "cut its step below the smallest one allowed"},
      {"the state is no longer finite", "the motion blew up"},
      {"At t = 0.2, mxstep steps taken before reaching tout.", "more steps than it may take"},
      {"something new", "could not go on"},
  };
  for (const auto& c : cases) {
    const QString message = QString("diverged after t = 0.25 s: ") + c.reason;
    const StopExplanation why = explainStop(message);
    EXPECT_TRUE(why.text.startsWith("The simulation stopped at t = 0.25 s: ")) << c.reason;
    EXPECT_TRUE(why.text.contains(c.plain)) << why.text.toStdString();
    EXPECT_FALSE(why.text.contains("hmin") || why.text.contains("mxstep")) << c.reason;
    EXPECT_EQ(why.detail, message);  // the engine's words, unchanged
  }
}

TEST(RunMessagesTest, OtherMessagesGoInASentenceWithOneFullStop) {
  const StopExplanation why = explainStop("failed to start: the model has no coordinates.");
  EXPECT_EQ(why.text.toStdString(),
            "The simulation failed to start: the model has no coordinates. The frames computed "
            "before are kept.");
  EXPECT_TRUE(why.detail.isEmpty());
  EXPECT_EQ(withoutFinalStop("hmin..").toStdString(), "hmin");
}

}  // namespace
}  // namespace tendril
