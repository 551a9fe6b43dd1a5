#pragma once
// Why a simulation run stopped, said for a person rather than by the solver: a plain sentence
// with what to try, and the engine's own words kept one click away (a message box's details).

#include <QString>

namespace tendril {

struct StopExplanation {
  QString text;    ///< what happened, when, and what to try
  QString detail;  ///< the engine's message, unchanged
};

/// \brief Explains the message a failed run ended with ("diverged after t = 0.5 s: REASON", as
///        simulate() words it); any other message is put in a sentence as it is.
StopExplanation explainStop(const QString& message);

/// \brief \p reason without its final full stops, to go inside a sentence (the solvers' own
///        messages end with one).
QString withoutFinalStop(QString reason);

}  // namespace tendril
