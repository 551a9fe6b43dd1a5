#include "ui/run_messages.hpp"

#include <QCoreApplication>
#include <QRegularExpression>

namespace tendril {
namespace {

QString translate(const char* text) {
  return QCoreApplication::translate("RunMessages", text);
}

// the solver's reason in plain words (SUNDIALS' CVODE and IDA, the fixed-step integrators, the
// finiteness check of simulate())
QString plainCause(const QString& reason) {
  if (reason.contains("error test failed"))
    return translate(
        "the integrator could not keep its error within the tolerance, even with "
        "the smallest step it may take");
  if (reason.contains("step size fell below"))
    return translate("the integrator had to cut its step below the smallest one allowed");
  if (reason.contains("convergence test failed"))
    return translate("the integrator's Newton iterations stopped converging");
  if (reason.contains("no longer finite"))
    return translate("the motion blew up: positions or velocities became infinite");
  if (reason.contains("mxstep") || reason.contains("too much work"))
    return translate("the integrator needed more steps than it may take");
  return translate("the integrator could not go on");
}

}  // namespace

StopExplanation explainStop(const QString& message) {
  static const QRegularExpression diverged(QStringLiteral("^diverged after t = (\\S+) s: (.*)$"),
                                           QRegularExpression::DotMatchesEverythingOption);
  const QRegularExpressionMatch match = diverged.match(message);
  if (!match.hasMatch()) {
    return {translate("The simulation %1. The frames computed before are kept.")
                .arg(withoutFinalStop(message)),
            QString()};
  }
  const QString text =
      translate(
          "The simulation stopped at t = %1 s: %2. The frames computed before are kept.\n\n"
          "This usually means the model is very stiff or unstable at these settings (an "
          "extreme stiffness or damping, a load too large for it), or that a fixed step is "
          "too long for it. Try a looser tolerance or a shorter step, or BDF instead of a "
          "fixed-step integrator; Show Details gives the integrator's own words.")
          .arg(match.captured(1), plainCause(match.captured(2)));
  return {text, message};
}

QString withoutFinalStop(QString reason) {
  while (reason.endsWith('.')) reason.chop(1);
  return reason;
}

}  // namespace tendril
