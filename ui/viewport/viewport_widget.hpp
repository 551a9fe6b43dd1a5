#pragma once
// The 3D view: a plain (raster) widget showing the picture a vtkGenericOpenGLRenderWindow renders
// into its own framebuffers, on an OpenGL context of ours with an offscreen surface (VTK's own Qt
// module is Qt 5 only on Debian 12; see docs in style.md section 3.6.1). Not a QOpenGLWidget: one
// of those makes Qt compose the whole window with OpenGL on every repaint of any widget in it,
// which costs 15-25 ms per repaint under Mesa's software rasteriser (docs/PERFORMANCE.md,
// "Studio"). The picture is rendered only when something changed (a frame, the camera, the
// size), once per turn of the event loop at most, in an event of its own. This header includes
// no VTK.

#include <QImage>
#include <QPointF>
#include <QSurfaceFormat>
#include <QWidget>
#include <array>
#include <memory>
#include <optional>

#include "core/sim/frame.hpp"
#include "ui/viewport/scene/scene_style.hpp"

namespace tendril {

class ViewportWidget : public QWidget {
  Q_OBJECT

 public:
  explicit ViewportWidget(QWidget* parent = nullptr);
  ~ViewportWidget() override;

  /// \brief OpenGL 3.2 core profile, RGBA8, depth buffer, no multisampling: what VTK's OpenGL2
  ///        backend needs (the viewport's own context uses it; set it as the default before
  ///        constructing QApplication for any other OpenGL user).
  static QSurfaceFormat defaultSurfaceFormat();

  /// \brief The picture of the current view, rendered now if anything changed since the last
  ///        render (RGB32, device pixels). Null when OpenGL is unavailable.
  [[nodiscard]] QImage grabFramebuffer();
  /// \brief Renders now when a render is pending (the scene, camera or size changed since the
  ///        last picture) and schedules a repaint, so that a grab() or repaint that follows shows
  ///        the current scene rather than the last picture. \return whether it rendered
  bool flushPendingRender();
  /// \brief How many times the scene was rendered (tests and benchmarks: unchanged views are
  ///        not rendered again).
  [[nodiscard]] int renderCount() const;

  /// \brief VTK's version string, for the About box.
  static QString vtkVersion();

  /// \brief Renders the current view and writes it as a PNG. \return false when writing fails
  bool saveScreenshot(const QString& path);
  /// \brief The current view rendered at \p pixels (the camera as on screen, the field of view
  ///        widened or narrowed to the new aspect), for exports at a chosen size. The widget's own
  ///        picture is rendered again at its size afterwards. Null when OpenGL is unavailable.
  [[nodiscard]] QImage renderImageAt(QSize pixels);

  /// \brief Camera position in world coordinates [m] (tests check that dragging rotates it).
  [[nodiscard]] std::array<double, 3> cameraPosition() const;
  [[nodiscard]] std::array<double, 3> cameraFocalPoint() const;

  /// \brief How often the scene rebuilt its actors (a new structure) rather than moving them.
  [[nodiscard]] int sceneRebuildCount() const;

  [[nodiscard]] FramePtr currentFrame() const;

  /// \brief Where world point \p p_W appears in widget coordinates (logical pixels).
  [[nodiscard]] QPointF projectToWidget(const Eigen::Vector3d& p_W) const;
  /// \brief The link drawn at widget position \p position, or -1.
  [[nodiscard]] int linkAt(const QPointF& position) const;
  [[nodiscard]] int highlightedLink() const;
  [[nodiscard]] int followedLink() const;
  [[nodiscard]] std::optional<tendril::RodQuantity> rodColouring() const;
  [[nodiscard]] bool showsColourLegend() const;
  /// \brief The colour map's top |value| (RobotScene::colourScaleTop()).
  [[nodiscard]] double colourScaleTop() const;
  /// \brief Cable polylines and point-load arrows drawn now.
  [[nodiscard]] int cableLineCount() const;
  [[nodiscard]] int loadArrowCount() const;
  /// \brief Height of the ground grid [m] (RobotScene::gridHeight).
  [[nodiscard]] double gridHeight() const;
  /// \brief Contact obstacles drawn (RobotScene::obstacleCount).
  [[nodiscard]] int obstacleCount() const;
  /// \brief Joint glyphs and computational-point triads drawn now.
  [[nodiscard]] int jointGlyphCount() const;
  [[nodiscard]] int frameTriadCount() const;
  [[nodiscard]] bool showsJoints() const;
  [[nodiscard]] bool showsFrames() const;

  /// \brief Shows the inverse-statics target sphere at \p position_W [m] (nullopt: hides it), red
  ///        when \p unreachable. While it is shown, a left drag that starts on it moves it in the
  ///        plane facing the camera through it (targetDragged) instead of turning the camera.
  void setTargetMarker(std::optional<Eigen::Vector3d> position_W, bool unreachable = false);
  [[nodiscard]] std::optional<Eigen::Vector3d> targetMarker() const;
  [[nodiscard]] bool targetMarkerUnreachable() const;
  [[nodiscard]] bool isDraggingTarget() const;
  /// \brief The world point under widget position \p position on the plane facing the camera
  ///        through \p through_W (how a drag moves the target).
  [[nodiscard]] Eigen::Vector3d unprojectOnViewPlane(const QPointF& position,
                                                     const Eigen::Vector3d& through_W) const;

  /// \brief The cables and point loads to draw over the frames (redraws the current one); the
  ///        colour scale starts afresh with the next frame shown.
  void setDescription(const RobotDescription& robot);

 public slots:
  /// \brief Shows \p frame (nullptr clears the view). The camera is reset when the robot's
  ///        structure changes, e.g. after loading another model.
  void showFrame(tendril::FramePtr frame);
  /// \brief Keeps the view direction and frames the whole robot.
  void fitView();
  /// \brief Back to the isometric view, fitted to the robot.
  void resetView();
  void setViewDirection(tendril::ViewDirection direction);
  /// \brief Tints link \p link (-1: nothing) as the selection.
  void setHighlightedLink(int link);
  /// \brief Keeps link \p link (-1: nothing) at the centre of the view as frames change: the
  ///        camera moves with the body's centre of mass or the rod's tip, keeping its direction.
  void setFollowedLink(int link);
  /// \brief Colours the rods by \p quantity, with a legend (nullopt: their plain colour).
  void setRodColouring(std::optional<tendril::RodQuantity> quantity);
  /// \brief Draws the joints as glyphs (on by default).
  void setShowJoints(bool on);
  /// \brief Draws x-y-z triads at the computational points and rigid link frames (off by
  ///        default).
  void setShowFrames(bool on);

 signals:
  /// \brief The user dragged the target sphere to \p position_W [m] (every mouse move).
  void targetDragged(const Eigen::Vector3d& position_W);
  /// \brief A left click without dragging landed on link \p link (-1: on nothing).
  void linkClicked(int link);
  /// \brief A right click without dragging landed on link \p link (-1: on nothing), at
  ///        \p global_position on the screen.
  void linkContextMenuRequested(int link, const QPoint& global_position);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void forwardMouseEvent(QMouseEvent* event, unsigned long vtk_event);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tendril
