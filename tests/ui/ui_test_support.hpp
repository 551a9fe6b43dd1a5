#pragma once
// Helpers shared by the GUI tests: a hand-built frame, pixel counting and screenshots.

#include <QImage>
#include <QString>
#include <memory>

#include "core/sim/frame.hpp"

class QAction;
class QMessageBox;
class QWidget;

namespace tendril {
class PropertyPanel;
}

namespace tendril::test {

// how long a test waits for a simulation run to finish before it fails (a bound, far above the
// runs' durations; the runs of the GUI tests take seconds)
constexpr int kRunTimeoutMs = 120000;

/// \brief A tapered rod bent into a quarter circle, plus a box and a sphere.
FramePtr makeCurvedRodFrame();

/// \brief The same structure with every point moved up by \p dz [m] (no actor rebuild needed).
FramePtr makeCurvedRodFrame(double dz);

/// \brief Pixels whose colour passes isRodPixel() (see scene_style.hpp).
int countRodPixels(const QImage& image);

/// \brief Pixels darker than 20/255 in every channel.
int countBlackPixels(const QImage& image);

/// \brief Pixels that differ between two images of the same size.
int countDifferentPixels(const QImage& a, const QImage& b);

/// \brief \p widget as it would appear now: every 3D view in it first renders a pending picture
///        (ViewportWidget::flushPendingRender), since a repaint draws the last rendered one until
///        the view's queued render runs. Use it for every screenshot of a window or dialog.
QImage grabWindow(QWidget& widget);

/// \brief Types \p text into \p panel's editor of the field at \p pointer, as a person would, and
///        presses Return; returns once the editor closed and the edit was applied.
void typeIntoField(PropertyPanel& panel, const QString& pointer, const QString& text);

/// \brief Saves \p image as <build>/screenshots/<name>.png for a human to look at.
void saveScreenshot(const QImage& image, const QString& name);

/// \brief Shows \p widget and waits until the window system has exposed it.
bool showAndWait(QWidget* widget);

/// \brief Path of resources/examples/<file_name>.
QString examplePath(const QString& file_name);

/// \brief The error box (objectName "errorBox") \p window shows, or nullptr.
QMessageBox* visibleErrorBox(const QWidget& window);

/// \brief The action of \p window named \p name (a test failure when there is none).
QAction* findAction(const QWidget& window, const char* name);

/// \brief Clicks the button named \p button_name ("stopRunButton", "keepRunningButton" or
///        "cancelEditButton") of the next "editDuringRunBox" shown within \p timeout_ms, as a
///        person would. \return a flag that turns true once it was clicked (read it after the
///        edit returned)
std::shared_ptr<bool> answerEditDuringRun(const char* button_name, int timeout_ms = 5000);

}  // namespace tendril::test
