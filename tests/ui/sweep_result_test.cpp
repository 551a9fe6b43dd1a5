// GUI tests of File > Open Sweep Result: the scatter of an output against a parameter, the
// failed cases, the partial-result note, and a click on a point opening that case's model.

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QScatterSeries>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/json_io.hpp"
#include "core/study/sweep_run.hpp"
#include "core/study/sweep_spec.hpp"
#include "ui/main_window.hpp"
#include "ui/sweep_result_dialog.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

// five cases zipped: Young's modulus and length change together; case 2's Poisson ratio is out
// of range, so it fails with the model's message
std::string cantileverSpec() {
  const nlohmann::json spec = {
      {"model", test::examplePath("soft_cantilever.json").toStdString()},
      {"combination", "zip"},
      {"parameters",
       {{{"pointer", "/links/0/soft/divisions/0/material/youngs_modulus"},
         {"name", "E"},
         {"values", {2e5, 5e5, 1e6, 2e6, 4e6}}},
        {{"pointer", "/links/0/soft/divisions/0/length"},
         {"name", "L"},
         {"values", {0.5, 0.3, 0.4, 0.45, 0.35}}},
        {{"pointer", "/links/0/soft/divisions/0/material/poisson_ratio"},
         {"name", "nu"},
         {"values", {0.5, 0.5, 0.51, 0.5, 0.5}}}}},
      {"job", {{"type", "statics"}}},
      {"outputs", {{"tips", {"rod"}}, {"coordinates", {"rod/div0/bend_y/0"}}}}};
  return spec.dump();
}

constexpr int kFailedCase = 2;

class SweepResultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(temp_.isValid());
    spec_ = parseSweepSpec(cantileverSpec(), temp_.path().toStdString());
    rows_ = runSweep(spec_, 1);
    csv_ = temp_.filePath("cantilever.csv");
    saveSweepCsv(spec_, rows_, csv_.toStdString());
    outputs_ = sweepOutputColumns(spec_);
  }

  [[nodiscard]] static SweepResultDialog* dialogOf(const MainWindow& window) {
    return window.findChild<SweepResultDialog*>("sweepResultDialog");
  }
  [[nodiscard]] int outputIndex(const std::string& name) const {
    return static_cast<int>(std::find(outputs_.begin(), outputs_.end(), name) - outputs_.begin());
  }
  /// \brief Where scatter point \p point is drawn, in the chart view's viewport.
  [[nodiscard]] static QPoint pointPosition(const SweepResultDialog& dialog, int point) {
    QChart* chart = dialog.chartView()->chart();
    const QPointF in_chart = chart->mapToPosition(dialog.scatter()->at(point), dialog.scatter());
    return dialog.chartView()->mapFromScene(chart->mapToScene(in_chart));
  }

  QTemporaryDir temp_;
  SweepSpec spec_;
  std::vector<SweepRow> rows_;
  std::vector<std::string> outputs_;
  QString csv_;
};

int countPixelsNear(const QImage& image, const QColor& colour) {
  int count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor pixel = image.pixelColor(x, y);
      if (std::abs(pixel.red() - colour.red()) + std::abs(pixel.green() - colour.green()) +
              std::abs(pixel.blue() - colour.blue()) <
          30)
        ++count;
    }
  return count;
}

TEST_F(SweepResultTest, ScatterHasOnePointPerSuccessfulCaseAtItsValues) {
  ASSERT_FALSE(rows_[kFailedCase].success);
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  // File > Open Sweep Result... opens a file dialog: type the file's name and press Return
  bool picked = false;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, [&] {
    auto* chooser = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    auto* name = chooser ? chooser->findChild<QLineEdit*>("fileNameEdit") : nullptr;
    if (name == nullptr || picked) return;
    picked = true;
    chooser->setDirectory(temp_.path());
    QTest::keyClicks(name, QFileInfo(csv_).fileName());
    QTest::keyClick(name, Qt::Key_Return);
  });
  poll.start(20);
  test::findAction(window, "openSweepResultAction")->trigger();
  poll.stop();
  ASSERT_TRUE(picked);
  SweepResultDialog* dialog = dialogOf(window);
  ASSERT_NE(dialog, nullptr);
  ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog));

  // default axes: the first parameter against the first output
  EXPECT_EQ(dialog->xCombo()->currentText(), "E");
  EXPECT_EQ(dialog->yCombo()->currentText(), QString::fromStdString(outputs_.front()));
  const auto check_points = [&](const std::string& y_name) {
    const int y = outputIndex(y_name);
    ASSERT_LT(y, static_cast<int>(outputs_.size()));
    QScatterSeries* scatter = dialog->scatter();
    ASSERT_EQ(scatter->count(), 4);
    int point = 0;
    for (const SweepRow& row : rows_) {
      if (!row.success) continue;
      EXPECT_EQ(dialog->caseOfPoint(point), row.index);
      EXPECT_EQ(scatter->at(point).x(), spec_.case_values[row.index][0].get<double>());
      EXPECT_EQ(scatter->at(point).y(), row.outputs[y]);
      ++point;
    }
    auto* x_axis = qobject_cast<QValueAxis*>(dialog->chartView()->chart()->axes(Qt::Horizontal)[0]);
    auto* y_axis = qobject_cast<QValueAxis*>(dialog->chartView()->chart()->axes(Qt::Vertical)[0]);
    EXPECT_EQ(x_axis->titleText(), "E");
    EXPECT_EQ(y_axis->titleText(), QString::fromStdString(y_name));
    for (QValueAxis* axis : {x_axis, y_axis}) {  // readable ticks: round, and not too many
      ASSERT_EQ(axis->tickType(), QValueAxis::TicksDynamic);
      const double mantissa =
          axis->tickInterval() / std::pow(10.0, std::floor(std::log10(axis->tickInterval())));
      EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                  std::abs(mantissa - 5) < 1e-9)
          << axis->tickInterval();
      const double shown = (axis->max() - axis->min()) / axis->tickInterval();
      EXPECT_GE(shown, 2.0);
      EXPECT_LE(shown, 8.0);
    }
    for (const QPointF& p : scatter->points()) {  // every point inside the plot
      EXPECT_LT(x_axis->min(), p.x());
      EXPECT_GT(x_axis->max(), p.x());
      EXPECT_LT(y_axis->min(), p.y());
      EXPECT_GT(y_axis->max(), p.y());
    }
  };
  check_points(outputs_.front());

  // another output: the points move to its values
  const QString tip_z = "tip:rod:z";
  const int z_item = dialog->yCombo()->findText(tip_z);
  ASSERT_GE(z_item, 0);
  const QList<QPointF> before = dialog->scatter()->points();
  dialog->yCombo()->setCurrentIndex(z_item);
  check_points(tip_z.toStdString());
  EXPECT_NE(dialog->scatter()->points(), before);
  // the picture must show the points, not a blank chart
  QTest::qWait(100);
  const QImage shot = test::grabWindow(*dialog);
  test::saveScreenshot(shot, "sweep_result_scatter");
  EXPECT_GT(countPixelsNear(shot, dialog->scatter()->color()), 4 * 30);

  // the failed case is listed with its message, and counted
  QTableWidget* failed = dialog->failedCases();
  ASSERT_EQ(failed->rowCount(), 1);
  EXPECT_EQ(failed->item(0, 0)->text(), QString::number(kFailedCase));
  EXPECT_EQ(failed->item(0, 1)->text(), QString::fromStdString(rows_[kFailedCase].message));
  EXPECT_TRUE(failed->item(0, 1)->text().contains("poisson_ratio"));
  EXPECT_TRUE(dialog->summary()->text().contains("5 cases (4 succeeded, 1 failed)"))
      << dialog->summary()->text().toStdString();
  EXPECT_FALSE(dialog->partialNote()->isVisible());
}

TEST_F(SweepResultTest, HoveringAPointNamesItsCaseAndClickingItOpensTheCaseModel) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openSweepResult(csv_));
  SweepResultDialog* dialog = dialogOf(window);
  ASSERT_NE(dialog, nullptr);
  ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog));
  dialog->activateWindow();
  QTest::qWait(100);

  const int point = 2;  // the third successful case: case 3
  const int index = dialog->caseOfPoint(point);
  ASSERT_EQ(index, 3);
  EXPECT_TRUE(dialog->pointDescription(point).startsWith("Case 3\nE = 2e+06\nL = 0.45"))
      << dialog->pointDescription(point).toStdString();
  QWidget* viewport = dialog->chartView()->viewport();
  const QPoint at = pointPosition(*dialog, point);
  QTest::mouseMove(viewport, at + QPoint(30, 30));
  QTest::mouseMove(viewport, at);
  EXPECT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 2000));
  EXPECT_EQ(QToolTip::text(), dialog->pointDescription(point));

  QTest::mouseClick(viewport, Qt::LeftButton, {}, at);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.robot().links.empty(); }, 2000));
  const CaseModel expected = caseDescription(spec_, index);
  ASSERT_TRUE(expected.description.has_value());
  EXPECT_EQ(window.robot(), *expected.description);
  const nlohmann::json opened = nlohmann::json::parse(serializeRobot(window.robot()));
  for (std::size_t p = 0; p < spec_.parameters.size(); ++p)
    EXPECT_EQ(opened.at(nlohmann::json::json_pointer(spec_.parameters[p].pointer)),
              spec_.case_values[index][p]);
  EXPECT_TRUE(window.isWindowModified());
  EXPECT_TRUE(window.currentFile().isEmpty());
  EXPECT_EQ(window.statusBar()->currentMessage(), "Opened case 3 of sweep cantilever.csv");
  test::saveScreenshot(test::grabWindow(window), "sweep_result_opened_case");

  // the opened case is unsaved: another click asks first; Cancel keeps it, Discard replaces it
  const RobotDescription case3 = window.robot();
  for (const auto button : {QMessageBox::Cancel, QMessageBox::Discard}) {
    bool asked = false;
    QTimer::singleShot(0, [&] {
      auto* question = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      ASSERT_NE(question, nullptr);
      asked = true;
      question->button(button)->click();
    });
    QTest::mouseClick(viewport, Qt::LeftButton, {}, pointPosition(*dialog, 0));
    EXPECT_TRUE(asked);
  }
  EXPECT_EQ(window.robot(), *caseDescription(spec_, dialog->caseOfPoint(0)).description);
  EXPECT_NE(window.robot(), case3);
}

TEST_F(SweepResultTest, DoubleClickingAFailedCaseSaysWhyItHasNoModel) {
  MainWindow window;
  ASSERT_TRUE(window.openDefaultExample());
  const RobotDescription before = window.robot();
  ASSERT_TRUE(window.openSweepResult(csv_));
  SweepResultDialog* dialog = dialogOf(window);
  ASSERT_NE(dialog, nullptr);
  ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog));
  QTableWidget* failed = dialog->failedCases();
  const QRect cell = failed->visualItemRect(failed->item(0, 1));
  QTest::mouseClick(failed->viewport(), Qt::LeftButton, {}, cell.center());
  QTest::mouseDClick(failed->viewport(), Qt::LeftButton, {}, cell.center());
  QMessageBox* box = test::visibleErrorBox(window);
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(box->text(), "Cannot open case 2 of sweep cantilever.csv");
  EXPECT_TRUE(window.lastError().contains("poisson_ratio")) << window.lastError().toStdString();
  EXPECT_EQ(window.robot(), before);
}

TEST_F(SweepResultTest, APartialResultShowsItsNote) {
  std::vector<SweepRow> some{rows_[0], rows_[1], rows_[3]};
  const auto written = saveSweepCsv(spec_, some, temp_.filePath("cut.csv").toStdString());
  MainWindow window;
  ASSERT_TRUE(window.openSweepResult(QString::fromStdString(written.string())))
      << window.lastError().toStdString();
  SweepResultDialog* dialog = dialogOf(window);
  ASSERT_NE(dialog, nullptr);
  ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog));
  EXPECT_TRUE(dialog->partialNote()->isVisible());
  EXPECT_TRUE(dialog->partialNote()->text().startsWith("PARTIAL RESULT (interrupted): 3 of 5"))
      << dialog->partialNote()->text().toStdString();
  EXPECT_EQ(dialog->scatter()->count(), 3);
  EXPECT_EQ(dialog->failedCases()->rowCount(), 0);
  EXPECT_TRUE(dialog->summary()->text().contains("3 of the sweep's 5 cases"));
  QTest::qWait(100);
  test::saveScreenshot(test::grabWindow(*dialog), "sweep_result_partial");
}

TEST_F(SweepResultTest, ACsvWithoutItsSpecOrUnreadableIsRefusedNamingTheFile) {
  MainWindow window;
  ASSERT_TRUE(window.openDefaultExample());
  const RobotDescription before = window.robot();
  QTemporaryDir elsewhere;
  const QString lonely = elsewhere.filePath("lonely.csv");
  ASSERT_TRUE(QFile::copy(csv_, lonely));
  EXPECT_FALSE(window.openSweepResult(lonely));
  EXPECT_TRUE(window.lastError().contains("lonely.sweep.json")) << window.lastError().toStdString();
  QMessageBox* box = test::visibleErrorBox(window);
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->text().contains("lonely.csv")) << box->text().toStdString();
  box->close();
  EXPECT_EQ(dialogOf(window), nullptr);
  EXPECT_EQ(window.robot(), before);

  const QString garbage = temp_.filePath("garbage.csv");
  QFile file(garbage);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("time,x\n0,1\n");
  file.close();
  EXPECT_FALSE(window.openSweepResult(garbage));
  EXPECT_TRUE(window.lastError().contains("not a sweep result"))
      << window.lastError().toStdString();
  EXPECT_FALSE(window.openSweepResult(temp_.filePath("missing.csv")));
  EXPECT_TRUE(window.lastError().contains("missing.csv"));
  EXPECT_EQ(dialogOf(window), nullptr);
  EXPECT_EQ(window.robot(), before);
}

}  // namespace
}  // namespace tendril
