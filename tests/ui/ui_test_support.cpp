#include "ui_test_support.hpp"

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QWidget>
#include <cmath>
#include <numbers>

#include "tendril_version.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/viewport/scene/scene_style.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril::test {
namespace {

constexpr int kRodSamples = 40;
constexpr double kBendRadius = 0.3;

RodShape makeQuarterCircleRod(double dz) {
  RodShape rod;
  rod.link = 0;
  for (int i = 0; i < kRodSamples; ++i) {
    const double s = static_cast<double>(i) / (kRodSamples - 1);
    const double angle = 0.5 * std::numbers::pi * s;
    rod.points.emplace_back(kBendRadius * std::sin(angle), 0.0,
                            0.1 + dz + kBendRadius * (1.0 - std::cos(angle)));
    const Eigen::Vector3d tangent(std::cos(angle), 0.0, std::sin(angle));
    Eigen::Matrix3d frame;
    frame.col(0) = tangent;
    frame.col(1) = Eigen::Vector3d::UnitY();
    frame.col(2) = tangent.cross(Eigen::Vector3d::UnitY());
    rod.orientations.push_back(frame);
    rod.radii.push_back(0.04 - 0.03 * s);
  }
  return rod;
}

BodyShape makeBody(ShapeType type, const Eigen::Vector3d& position, const Vec3& color) {
  BodyShape body;
  body.link = 1;
  body.shape.type = type;
  body.shape.size = {0.12, 0.08, 0.06};
  body.shape.color = color;
  body.pose_W.translation() = position;
  return body;
}

}  // namespace

FramePtr makeCurvedRodFrame() {
  return makeCurvedRodFrame(0.0);
}

FramePtr makeCurvedRodFrame(double dz) {
  auto frame = std::make_shared<Frame>();
  frame->model_revision = 1;
  frame->rods.push_back(makeQuarterCircleRod(dz));
  frame->bodies.push_back(makeBody(ShapeType::Box, {0.0, 0.0, 0.05 + dz}, {0.85, 0.33, 0.25}));
  BodyShape sphere = makeBody(ShapeType::Sphere, {0.3, 0.0, 0.4 + dz}, {0.75, 0.75, 0.78});
  sphere.shape.size = {0.05, 0.0, 0.0};
  frame->bodies.push_back(sphere);
  return frame;
}

int countRodPixels(const QImage& image) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  int count = 0;
  for (int y = 0; y < rgb.height(); ++y) {
    for (int x = 0; x < rgb.width(); ++x) {
      const QRgb pixel = rgb.pixel(x, y);
      count += isRodPixel(qRed(pixel), qGreen(pixel), qBlue(pixel)) ? 1 : 0;
    }
  }
  return count;
}

int countBlackPixels(const QImage& image) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  int count = 0;
  for (int y = 0; y < rgb.height(); ++y) {
    for (int x = 0; x < rgb.width(); ++x) {
      const QRgb pixel = rgb.pixel(x, y);
      count += qRed(pixel) < 20 && qGreen(pixel) < 20 && qBlue(pixel) < 20 ? 1 : 0;
    }
  }
  return count;
}

int countDifferentPixels(const QImage& a, const QImage& b) {
  if (a.size() != b.size()) {
    return a.width() * a.height();
  }
  const QImage first = a.convertToFormat(QImage::Format_RGB32);
  const QImage second = b.convertToFormat(QImage::Format_RGB32);
  int count = 0;
  for (int y = 0; y < first.height(); ++y) {
    for (int x = 0; x < first.width(); ++x) {
      count += first.pixel(x, y) != second.pixel(x, y) ? 1 : 0;
    }
  }
  return count;
}

QImage grabWindow(QWidget& widget) {
  QList<ViewportWidget*> views = widget.findChildren<ViewportWidget*>();
  if (auto* self = qobject_cast<ViewportWidget*>(&widget)) {
    views.append(self);
  }
  for (ViewportWidget* view : views) {
    view->flushPendingRender();
  }
  return widget.grab().toImage();
}

void saveScreenshot(const QImage& image, const QString& name) {
  QDir().mkpath(TENDRIL_SCREENSHOT_DIR);
  image.save(QDir(TENDRIL_SCREENSHOT_DIR).filePath(name + ".png"), "PNG");
}

bool showAndWait(QWidget* widget) {
  widget->show();
  const bool exposed = QTest::qWaitForWindowExposed(widget);
  QTest::qWait(50);
  return exposed;
}

QString examplePath(const QString& file_name) {
  return QDir(TENDRIL_SOURCE_EXAMPLES_DIR).filePath(file_name);
}

QMessageBox* visibleErrorBox(const QWidget& window) {
  for (QMessageBox* box : window.findChildren<QMessageBox*>("errorBox")) {
    if (box->isVisible()) {
      return box;
    }
  }
  return nullptr;
}

QAction* findAction(const QWidget& window, const char* name) {
  auto* found = window.findChild<QAction*>(name);
  EXPECT_NE(found, nullptr) << name;
  return found;
}

void typeIntoField(PropertyPanel& panel, const QString& pointer, const QString& text) {
  ASSERT_TRUE(panel.editField(pointer)) << pointer.toStdString();
  QPointer<QLineEdit> editor;
  for (QLineEdit* candidate : panel.tree()->findChildren<QLineEdit*>()) {
    if (candidate->isVisible()) editor = candidate;
  }
  ASSERT_NE(editor, nullptr);
  editor->selectAll();
  QTest::keyClicks(editor, text);
  QTest::keyClick(editor, Qt::Key_Return);
  // the editor closes, then the edit is applied from the event loop
  ASSERT_TRUE(QTest::qWaitFor([&editor] { return editor.isNull(); }, 2000));
  QTest::qWait(20);
}

std::shared_ptr<bool> answerEditDuringRun(const char* button_name, int timeout_ms) {
  auto clicked = std::make_shared<bool>(false);
  auto* poll = new QTimer();
  auto clock = std::make_shared<QElapsedTimer>();
  clock->start();
  poll->setInterval(10);
  // the poll ends with the test that holds the flag, so a box left unanswered by a failing test
  // is not answered in the next one
  QObject::connect(poll, &QTimer::timeout,
                   [poll, clock, button_name, timeout_ms, flag = std::weak_ptr<bool>(clicked)] {
                     const std::shared_ptr<bool> answered = flag.lock();
                     auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                     if (answered && box != nullptr && box->objectName() == "editDuringRunBox") {
                       if (auto* button = box->findChild<QAbstractButton*>(button_name)) {
                         QTest::mouseClick(button, Qt::LeftButton);
                         *answered = true;
                       }
                     }
                     if (!answered || *answered || clock->elapsed() > timeout_ms) {
                       poll->stop();
                       poll->deleteLater();
                     }
                   });
  poll->start();
  return clicked;
}

}  // namespace tendril::test
