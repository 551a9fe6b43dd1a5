#pragma once
// Help > User Guide: build -> simulate -> scrub -> export, from resources/guide/user_guide.md
// (compiled in). Not modal, so that a reader can follow it in the studio beside it.

#include <QDialog>

class QTextBrowser;

namespace tendril {

class UserGuideDialog : public QDialog {
  Q_OBJECT

 public:
  explicit UserGuideDialog(QWidget* parent = nullptr);

  /// \brief The guide's Markdown source.
  [[nodiscard]] static QString markdown();
  [[nodiscard]] QTextBrowser* browser() const;

 private:
  QTextBrowser* browser_ = nullptr;
};

}  // namespace tendril
