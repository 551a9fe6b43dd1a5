// clang-format off
// VTK's OpenGL headers pull vtk_glew.h, which must precede any Qt OpenGL header (gl.h)
#include <vtkOpenGLState.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkOpenGLFramebufferObject.h>
// clang-format on
#include "ui/viewport/viewport_widget.hpp"

#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkOrientationMarkerWidget.h>
#include <vtkRenderer.h>

#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QPaintEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QScreen>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <optional>

#include "ui/turn_queue.hpp"
#include "ui/viewport/scene/robot_scene.hpp"
#include "ui/viewport/scene/scene_setup.hpp"
#include "ui/viewport/scene/target_marker.hpp"

namespace tendril {
namespace {

constexpr int kUnscaledDpi = 72;  // vtkWindow's default
constexpr double kAxesViewportSize = 0.2;
constexpr int kClickSlopPixels = 4;         // a press and release closer than this is a click
constexpr double kTargetGrabPixels = 12.0;  // a press this close to the target sphere grabs it

}  // namespace

struct ViewportWidget::Impl {
  ViewportWidget* owner;
  vtkNew<vtkGenericOpenGLRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  vtkNew<vtkGenericRenderWindowInteractor> interactor;
  vtkNew<vtkInteractorStyleTrackballCamera> style;
  vtkNew<vtkOrientationMarkerWidget> axes_widget;
  RobotScene scene{renderer};
  TargetMarker target{renderer};
  bool dragging_target = false;
  FramePtr frame;
  // our own context, current on an offscreen surface: VTK renders into its framebuffers and the
  // picture is read back into `image`, which paintEvent draws like any other
  QOffscreenSurface surface;
  QOpenGLContext context;
  bool gl_initialized = false;
  bool gl_failed = false;
  QImage image;       ///< the last rendered picture (RGB32, device pixels, bottom row last)
  bool stale = true;  ///< the scene, camera or size changed since `image` was rendered
  int render_count = 0;
  bool in_render = false;
  bool render_queued = false;          ///< a render waits in the TurnQueue
  bool camera_moved_by_user = false;   ///< until then, resizing refits the view
  std::optional<QPointF> left_press;   ///< where the left button went down, while it is down
  std::optional<QPointF> right_press;  ///< where the right button went down, while it is down
  int followed_link = -1;

  // where a link is in a frame: a body's centre of mass, a rod's tip
  static std::optional<Eigen::Vector3d> linkPoint(const Frame& frame, int link) {
    for (const BodyShape& body : frame.bodies) {
      if (body.link == link) return body.pose_W.translation();
    }
    for (const RodShape& rod : frame.rods) {
      if (rod.link == link && !rod.points.empty()) return rod.points.back();
    }
    return std::nullopt;
  }

  // the camera keeps its offset from the focal point, which moves onto the link
  void follow() {
    if (followed_link < 0 || !frame) return;
    const std::optional<Eigen::Vector3d> target = linkPoint(*frame, followed_link);
    if (!target) return;
    vtkCamera* camera = renderer->GetActiveCamera();
    Eigen::Vector3d focal, position;
    camera->GetFocalPoint(focal.data());
    camera->GetPosition(position.data());
    const Eigen::Vector3d moved = position + (*target - focal);
    camera->SetFocalPoint(target->x(), target->y(), target->z());
    camera->SetPosition(moved.x(), moved.y(), moved.z());
  }

  explicit Impl(ViewportWidget* widget) : owner(widget) {
    styleRenderer(renderer);
    window->AddRenderer(renderer);
    // the context is ours (made current through the observers below) and VTK renders into its
    // own framebuffers, waiting for initializeGl() before rendering at all
    window->SetReadyForRendering(false);
    window->SetFrameBlitModeToNoBlit();
    window->SetMultiSamples(0);
    window->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &Impl::onMakeCurrent);
    window->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &Impl::onIsCurrent);
    window->AddObserver(vtkCommand::WindowFrameEvent, this, &Impl::onFrame);
    setUpInteractor();
    setCameraView(renderer, ViewDirection::Isometric, std::nullopt);
  }

  void setUpInteractor() {
    interactor->SetRenderWindow(window);
    interactor->SetInteractorStyle(style);
    // interactor "renders" only ask Qt for a repaint; paintEvent does the real render
    interactor->EnableRenderOff();
    interactor->AddObserver(vtkCommand::RenderEvent, this, &Impl::onInteractorRender);
    interactor->Initialize();
    vtkNew<vtkAxesActor> axes;
    axes_widget->SetOrientationMarker(axes);
    axes_widget->SetInteractor(interactor);
    axes_widget->SetViewport(0.0, 0.0, kAxesViewportSize, kAxesViewportSize);
    axes_widget->SetCurrentRenderer(renderer);
    axes_widget->SetEnabled(1);
    axes_widget->InteractiveOff();
  }

  void onMakeCurrent(vtkObject*, unsigned long, void*) {
    if (gl_initialized) {
      context.makeCurrent(&surface);
    }
  }

  void onIsCurrent(vtkObject*, unsigned long, void* call_data) {
    *static_cast<bool*>(call_data) = QOpenGLContext::currentContext() == &context;
  }

  // a render VTK started by itself (not ours) means the picture is out of date
  void onFrame(vtkObject*, unsigned long, void*) {
    if (!in_render) {
      requestRender();
    }
  }

  void onInteractorRender(vtkObject*, unsigned long, void*) { requestRender(); }

  /// the scene is rendered again in a turn of the event loop of its own (TurnQueue, shared with
  /// the plots, so that a render and a chart's relayout do not add up in one turn), then painted:
  /// not inside
  /// whichever event changed it, nor inside a repaint of the window that another widget forced
  /// (Qt Charts dispatches the window's pending repaint at once after every change of a chart)
  void requestRender() {
    stale = true;
    if (!render_queued) {
      render_queued = true;
      TurnQueue::instance().post(owner, QStringLiteral("viewportRender"), [this] {
        if (render_queued) {  // else rendered meanwhile (flushPendingRender, a forced paint)
          render_queued = false;
          onRenderTurn();
        }
      });
    }
  }

  void onRenderTurn() {
    if (stale && owner->isVisible()) {
      renderImage();
      owner->update();
    }
  }

  std::optional<Bounds> robotBounds() const { return scene.robotBounds(); }

  void render() {
    renderer->ResetCameraClippingRange();
    window->Render();
  }

  // the context and surface, and VTK's OpenGL state on them; once (a failure is not retried)
  bool initializeGl() {
    if (gl_initialized || gl_failed) {
      return gl_initialized;
    }
    const QSurfaceFormat format = ViewportWidget::defaultSurfaceFormat();
    surface.setFormat(format);
    surface.create();
    context.setFormat(format);
    if (!surface.isValid() || !context.create() || !context.makeCurrent(&surface)) {
      gl_failed = true;
      qWarning("tendril: the 3D view cannot create an OpenGL %d.%d context", format.majorVersion(),
               format.minorVersion());
      return false;
    }
    gl_initialized = true;
    vtkOpenGLState* state = window->GetState();
    state->Reset();
    // VTK's shaders expect GL_LEQUAL
    state->vtkglDepthFunc(GL_LEQUAL);
    window->SetOwnContext(0);
    window->OpenGLInitContext();
    window->SetReadyForRendering(true);
    return true;
  }

  // the alpha channel is unspecified after VTK's render: make the picture opaque
  void forceOpaqueAlpha(vtkOpenGLState* state, int width, int height) {
    state->vtkglViewport(0, 0, width, height);
    state->vtkglDisable(GL_SCISSOR_TEST);
    state->vtkglColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    state->vtkglClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    state->vtkglClear(GL_COLOR_BUFFER_BIT);
  }

  // renders the scene and reads VTK's display framebuffer back into `image`
  void renderImage() {
    if (!initializeGl()) {
      return;
    }
    const QScopedValueRollback<bool> rendering(in_render, true);
    context.makeCurrent(&surface);
    vtkOpenGLState* state = window->GetState();
    state->Reset();
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL);
    render();
    const int* size = window->GetSize();
    const int width = size[0], height = size[1];
    if (image.width() != width || image.height() != height) {
      image = QImage(width, height, QImage::Format_RGB32);
    }
    image.setDevicePixelRatio(owner->devicePixelRatioF());
    vtkOpenGLFramebufferObject* display = window->GetDisplayFramebuffer();
    state->vtkglBindFramebuffer(GL_FRAMEBUFFER, display->GetFBOIndex());
    forceOpaqueAlpha(state, width, height);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    state->vtkglPixelStorei(GL_PACK_ALIGNMENT, 4);
    // 0xAARRGGBB words: QImage's RGB32 whatever the byte order, no conversion on either side
    glReadPixels(0, 0, width, height, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, image.bits());
    state->Pop();
    image.mirror();  // OpenGL's rows run bottom to top
    stale = false;
    ++render_count;
  }

  void finalize() {
    if (gl_initialized) {
      context.makeCurrent(&surface);
      window->Finalize();
      context.doneCurrent();
    }
    window->SetReadyForRendering(false);
    gl_initialized = false;
  }
};

ViewportWidget::ViewportWidget(QWidget* parent)
    : QWidget(parent), impl_(std::make_unique<Impl>(this)) {
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(160, 120);
  // paintEvent covers every pixel with the picture: no background to clear first
  setAttribute(Qt::WA_OpaquePaintEvent);
}

// release VTK's OpenGL resources while their context is current; VTK calls back no more
ViewportWidget::~ViewportWidget() {
  impl_->finalize();
  impl_->window->RemoveAllObservers();
}

QSurfaceFormat ViewportWidget::defaultSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  format.setAlphaBufferSize(8);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  format.setSamples(0);
  return format;
}

QString ViewportWidget::vtkVersion() {
  return QString::fromStdString(vtkVersionString());
}

QImage ViewportWidget::grabFramebuffer() {
  if (impl_->stale || impl_->image.isNull()) {
    impl_->renderImage();
  }
  return impl_->image;
}

bool ViewportWidget::flushPendingRender() {
  if (!impl_->stale && !impl_->image.isNull()) {
    return false;
  }
  impl_->render_queued = false;
  const int before = impl_->render_count;
  impl_->renderImage();
  update();
  return impl_->render_count != before;
}

int ViewportWidget::renderCount() const {
  return impl_->render_count;
}

QImage ViewportWidget::renderImageAt(QSize pixels) {
  const int* size = impl_->window->GetSize();
  const int width = size[0], height = size[1];
  impl_->interactor->UpdateSize(pixels.width(), pixels.height());
  impl_->renderImage();
  QImage picture = impl_->image.copy();
  picture.setDevicePixelRatio(1.0);
  impl_->interactor->UpdateSize(width, height);
  impl_->stale = true;
  impl_->requestRender();
  return picture;
}

bool ViewportWidget::saveScreenshot(const QString& path) {
  const QImage image = grabFramebuffer();
  return !image.isNull() && image.save(path, "PNG");
}

std::array<double, 3> ViewportWidget::cameraPosition() const {
  std::array<double, 3> position{};
  impl_->renderer->GetActiveCamera()->GetPosition(position.data());
  return position;
}

std::array<double, 3> ViewportWidget::cameraFocalPoint() const {
  std::array<double, 3> focal_point{};
  impl_->renderer->GetActiveCamera()->GetFocalPoint(focal_point.data());
  return focal_point;
}

int ViewportWidget::sceneRebuildCount() const {
  return impl_->scene.rebuildCount();
}

FramePtr ViewportWidget::currentFrame() const {
  return impl_->frame;
}

QPointF ViewportWidget::projectToWidget(const Eigen::Vector3d& p_W) const {
  vtkRenderer* renderer = impl_->renderer;
  renderer->SetWorldPoint(p_W.x(), p_W.y(), p_W.z(), 1.0);
  renderer->WorldToDisplay();
  double display[3];
  renderer->GetDisplayPoint(display);
  const qreal ratio = devicePixelRatioF();
  const int* size = impl_->window->GetSize();
  return {display[0] / ratio, (size[1] - display[1]) / ratio};
}

int ViewportWidget::linkAt(const QPointF& position) const {
  const qreal ratio = devicePixelRatioF();
  const int* size = impl_->window->GetSize();
  return impl_->scene.pickLink(position.x() * ratio, size[1] - position.y() * ratio);
}

int ViewportWidget::cableLineCount() const {
  return impl_->scene.cableLineCount();
}

double ViewportWidget::gridHeight() const {
  return impl_->scene.gridHeight();
}

int ViewportWidget::obstacleCount() const {
  return impl_->scene.obstacleCount();
}

int ViewportWidget::loadArrowCount() const {
  return impl_->scene.loadArrowCount();
}

void ViewportWidget::setDescription(const RobotDescription& robot) {
  impl_->scene.setDescription(robot);
  if (impl_->frame) {
    impl_->scene.show(*impl_->frame);
  }
  // another model, or an edit (which clears the results): the values of the frames shown so far
  // say nothing of the frames to come
  impl_->scene.restartColourScale();
  impl_->requestRender();
}

int ViewportWidget::highlightedLink() const {
  return impl_->scene.highlightedLink();
}

void ViewportWidget::setTargetMarker(std::optional<Eigen::Vector3d> position_W, bool unreachable) {
  if (!position_W) {
    impl_->target.hide();
    impl_->dragging_target = false;
  } else {
    // a size seen at any zoom: 3 % of the robot's extent, at least 5 mm
    double radius = 0.005;
    if (const std::optional<Bounds> bounds = impl_->robotBounds()) {
      const Eigen::Vector3d extent((*bounds)[1] - (*bounds)[0], (*bounds)[3] - (*bounds)[2],
                                   (*bounds)[5] - (*bounds)[4]);
      radius = std::max(radius, 0.03 * extent.norm());
    }
    if (impl_->target.visible()) radius = impl_->target.radius();  // steady while dragging
    impl_->target.show(*position_W, radius, unreachable);
  }
  impl_->requestRender();
}

std::optional<Eigen::Vector3d> ViewportWidget::targetMarker() const {
  if (!impl_->target.visible()) return std::nullopt;
  return impl_->target.position();
}

bool ViewportWidget::targetMarkerUnreachable() const {
  return impl_->target.visible() && impl_->target.unreachable();
}

bool ViewportWidget::isDraggingTarget() const {
  return impl_->dragging_target;
}

// a constant display depth is a plane facing the camera (perspective or parallel)
Eigen::Vector3d ViewportWidget::unprojectOnViewPlane(const QPointF& position,
                                                     const Eigen::Vector3d& through_W) const {
  vtkRenderer* renderer = impl_->renderer;
  renderer->SetWorldPoint(through_W.x(), through_W.y(), through_W.z(), 1.0);
  renderer->WorldToDisplay();
  double display[3];
  renderer->GetDisplayPoint(display);
  const qreal ratio = devicePixelRatioF();
  const int* size = impl_->window->GetSize();
  renderer->SetDisplayPoint(position.x() * ratio, size[1] - position.y() * ratio, display[2]);
  renderer->DisplayToWorld();
  double world[4];
  renderer->GetWorldPoint(world);
  return Eigen::Vector3d(world[0], world[1], world[2]) / world[3];
}

void ViewportWidget::setHighlightedLink(int link) {
  if (link != impl_->scene.highlightedLink()) {
    impl_->scene.setHighlightedLink(link);
    impl_->requestRender();
  }
}

void ViewportWidget::showFrame(FramePtr frame) {
  impl_->frame = frame;
  if (!frame) {
    impl_->scene.clear();
  } else if (impl_->scene.show(*frame)) {
    resetView();
  }
  impl_->follow();
  impl_->requestRender();
}

void ViewportWidget::setFollowedLink(int link) {
  impl_->followed_link = link;
  impl_->follow();
  impl_->requestRender();
}

int ViewportWidget::followedLink() const {
  return impl_->followed_link;
}

void ViewportWidget::setRodColouring(std::optional<RodQuantity> quantity) {
  impl_->scene.setRodColouring(quantity);
  if (impl_->frame) {
    impl_->scene.show(*impl_->frame);
  }
  impl_->requestRender();
}

std::optional<RodQuantity> ViewportWidget::rodColouring() const {
  return impl_->scene.rodColouring();
}

bool ViewportWidget::showsColourLegend() const {
  return impl_->scene.showsColourLegend();
}

double ViewportWidget::colourScaleTop() const {
  return impl_->scene.colourScaleTop();
}

void ViewportWidget::setShowJoints(bool on) {
  impl_->scene.setShowJoints(on);
  if (impl_->frame) {
    impl_->scene.show(*impl_->frame);
  }
  impl_->requestRender();
}

void ViewportWidget::setShowFrames(bool on) {
  impl_->scene.setShowFrames(on);
  if (impl_->frame) {
    impl_->scene.show(*impl_->frame);
  }
  impl_->requestRender();
}

int ViewportWidget::jointGlyphCount() const {
  return impl_->scene.jointGlyphCount();
}

int ViewportWidget::frameTriadCount() const {
  return impl_->scene.frameTriadCount();
}

bool ViewportWidget::showsJoints() const {
  return impl_->scene.showsJoints();
}

bool ViewportWidget::showsFrames() const {
  return impl_->scene.showsFrames();
}

void ViewportWidget::fitView() {
  fitCamera(impl_->renderer, impl_->robotBounds());
  impl_->camera_moved_by_user = false;
  impl_->requestRender();
}

void ViewportWidget::resetView() {
  setViewDirection(ViewDirection::Isometric);
}

void ViewportWidget::setViewDirection(ViewDirection direction) {
  setCameraView(impl_->renderer, direction, impl_->robotBounds());
  impl_->camera_moved_by_user = false;
  impl_->requestRender();
}

void ViewportWidget::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const qreal ratio = devicePixelRatioF();
  impl_->interactor->UpdateSize(qRound(width() * ratio), qRound(height() * ratio));
  if (const QScreen* display = screen()) {
    const QSize screen_pixels = display->size() * ratio;
    impl_->window->SetScreenSize(screen_pixels.width(), screen_pixels.height());
  }
  impl_->window->SetDPI(qRound(kUnscaledDpi * ratio));
  // a fit made before the first show used the wrong aspect ratio
  if (!impl_->camera_moved_by_user) {
    fitCamera(impl_->renderer, impl_->robotBounds());
  }
  impl_->requestRender();
}

// a repaint draws the last picture, even while a newer one is due (the queued render renders it and
// repaints), so that a window repaint forced in the middle of another event never renders; only a
// paint with no render scheduled (the first one, after a failed or skipped render) renders at once
void ViewportWidget::paintEvent(QPaintEvent* event) {
  if (impl_->image.isNull() || (impl_->stale && !impl_->render_queued)) {
    impl_->render_queued = false;
    impl_->renderImage();
  }
  QPainter painter(this);
  if (impl_->image.isNull()) {
    painter.fillRect(event->rect(), palette().window());
    painter.drawText(rect(), Qt::AlignCenter, tr("The 3D view needs OpenGL 3.2."));
    return;
  }
  painter.drawImage(QPointF(0.0, 0.0), impl_->image);
}

void ViewportWidget::forwardMouseEvent(QMouseEvent* event, unsigned long vtk_event) {
  const qreal ratio = devicePixelRatioF();
  const QPointF position = event->position() * ratio;
  const Qt::KeyboardModifiers modifiers = event->modifiers();
  vtkGenericRenderWindowInteractor* interactor = impl_->interactor;
  const int repeat = event->type() == QEvent::MouseButtonDblClick ? 1 : 0;
  interactor->SetEventInformationFlipY(qRound(position.x()), qRound(position.y()),
                                       modifiers.testFlag(Qt::ControlModifier) ? 1 : 0,
                                       modifiers.testFlag(Qt::ShiftModifier) ? 1 : 0, 0, repeat);
  interactor->SetAltKey(modifiers.testFlag(Qt::AltModifier) ? 1 : 0);
  interactor->InvokeEvent(vtk_event, event);
  impl_->camera_moved_by_user |= vtk_event != vtkCommand::MouseMoveEvent;
  event->accept();
}

namespace {

unsigned long pressEventFor(Qt::MouseButton button) {
  switch (button) {
    case Qt::LeftButton:
      return vtkCommand::LeftButtonPressEvent;
    case Qt::MiddleButton:
      return vtkCommand::MiddleButtonPressEvent;
    case Qt::RightButton:
      return vtkCommand::RightButtonPressEvent;
    default:
      return vtkCommand::NoEvent;
  }
}

unsigned long releaseEventFor(Qt::MouseButton button) {
  switch (button) {
    case Qt::LeftButton:
      return vtkCommand::LeftButtonReleaseEvent;
    case Qt::MiddleButton:
      return vtkCommand::MiddleButtonReleaseEvent;
    case Qt::RightButton:
      return vtkCommand::RightButtonReleaseEvent;
    default:
      return vtkCommand::NoEvent;
  }
}

}  // namespace

void ViewportWidget::mousePressEvent(QMouseEvent* event) {
  // a left press on the target sphere grabs it: the drag is not the camera's
  if (event->button() == Qt::LeftButton && impl_->target.visible()) {
    const Eigen::Vector3d centre_W = impl_->target.position();
    const QPointF centre = projectToWidget(centre_W);
    // the sphere's radius on screen: one pixel to the right, in world, scaled to the radius
    const Eigen::Vector3d right_W =
        (unprojectOnViewPlane(centre + QPointF(1.0, 0.0), centre_W) - centre_W).normalized();
    const QPointF rim = projectToWidget(centre_W + impl_->target.radius() * right_W);
    const double grab =
        std::max(kTargetGrabPixels, std::hypot(rim.x() - centre.x(), rim.y() - centre.y()));
    const QPointF offset = event->position() - centre;
    if (std::hypot(offset.x(), offset.y()) <= grab) {
      impl_->dragging_target = true;
      event->accept();
      return;
    }
  }
  if (event->button() == Qt::LeftButton) {
    impl_->left_press = event->position();
  } else if (event->button() == Qt::RightButton) {
    impl_->right_press = event->position();
  }
  if (const unsigned long vtk_event = pressEventFor(event->button());
      vtk_event != vtkCommand::NoEvent) {
    forwardMouseEvent(event, vtk_event);
  }
}

void ViewportWidget::mouseDoubleClickEvent(QMouseEvent* event) {
  mousePressEvent(event);
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && impl_->dragging_target) {
    impl_->dragging_target = false;
    event->accept();
    return;
  }
  if (const unsigned long vtk_event = releaseEventFor(event->button());
      vtk_event != vtkCommand::NoEvent) {
    forwardMouseEvent(event, vtk_event);
  }
  if (event->button() == Qt::LeftButton && impl_->left_press) {
    const bool click =
        (event->position() - *impl_->left_press).manhattanLength() < kClickSlopPixels;
    impl_->left_press.reset();
    if (click) {
      emit linkClicked(linkAt(event->position()));
    }
  }
  // the right button also zooms by dragging: only a click asks for the context menu
  if (event->button() == Qt::RightButton && impl_->right_press) {
    const bool click =
        (event->position() - *impl_->right_press).manhattanLength() < kClickSlopPixels;
    impl_->right_press.reset();
    if (click) {
      emit linkContextMenuRequested(linkAt(event->position()), event->globalPosition().toPoint());
    }
  }
}

void ViewportWidget::mouseMoveEvent(QMouseEvent* event) {
  if (impl_->dragging_target) {
    const Eigen::Vector3d moved = unprojectOnViewPlane(event->position(), impl_->target.position());
    impl_->target.show(moved, impl_->target.radius(), impl_->target.unreachable());
    impl_->requestRender();
    emit targetDragged(moved);
    event->accept();
    return;
  }
  forwardMouseEvent(event, vtkCommand::MouseMoveEvent);
}

void ViewportWidget::wheelEvent(QWheelEvent* event) {
  const int steps = event->angleDelta().y();
  if (steps == 0) {
    return;
  }
  const QPointF position = event->position() * devicePixelRatioF();
  impl_->interactor->SetEventInformationFlipY(qRound(position.x()), qRound(position.y()));
  impl_->interactor->InvokeEvent(
      steps > 0 ? vtkCommand::MouseWheelForwardEvent : vtkCommand::MouseWheelBackwardEvent, event);
  impl_->camera_moved_by_user = true;
  event->accept();
}

}  // namespace tendril
