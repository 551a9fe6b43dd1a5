#include "ui/user_guide_dialog.hpp"

#include <QDialogButtonBox>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/compiled_resources.hpp"

namespace tendril {

UserGuideDialog::UserGuideDialog(QWidget* parent) : QDialog(parent) {
  setObjectName("userGuide");
  setWindowTitle(tr("Tendril User Guide"));
  browser_ = new QTextBrowser(this);
  browser_->setObjectName("userGuideBrowser");
  browser_->setOpenExternalLinks(true);
  browser_->setMarkdown(markdown());
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(browser_, 1);
  layout->addWidget(buttons);
  resize(760, 680);
}

QString UserGuideDialog::markdown() {
  ensureCompiledResources();
  QFile file(QStringLiteral(":/guide/user_guide.md"));
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QTextBrowser* UserGuideDialog::browser() const {
  return browser_;
}

}  // namespace tendril
