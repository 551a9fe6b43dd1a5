#include "ui/viewport/scene/colour_legend.hpp"

#include <vtkCoordinate.h>
#include <vtkTextProperty.h>

#include <cmath>

namespace tendril {

vtkSmartPointer<vtkLookupTable> makeSequentialTable() {
  auto table = vtkSmartPointer<vtkLookupTable>::New();
  table->SetHueRange(0.667, 0.0);  // blue to red
  table->Build();
  return table;
}

vtkSmartPointer<vtkLookupTable> makeDivergingTable() {
  constexpr int kColours = 255;
  auto table = vtkSmartPointer<vtkLookupTable>::New();
  table->SetNumberOfTableValues(kColours);
  for (int i = 0; i < kColours; ++i) {
    const double x = 2.0 * i / (kColours - 1) - 1.0;  // -1 .. 1
    const double fade = 1.0 - std::abs(x);
    if (x < 0.0) {
      table->SetTableValue(i, fade, fade, 1.0);
    } else {
      table->SetTableValue(i, 1.0, fade, fade);
    }
  }
  return table;
}

vtkSmartPointer<vtkScalarBarActor> makeLegend() {
  auto legend = vtkSmartPointer<vtkScalarBarActor>::New();
  legend->SetOrientationToVertical();
  legend->SetNumberOfLabels(5);
  legend->SetLabelFormat("%-#6.3g");
  // labels left of the bar, so that the title (centred over both) stays inside the view
  legend->SetTextPositionToPrecedeScalarBar();
  legend->GetPositionCoordinate()->SetValue(0.78, 0.08);
  legend->SetWidth(0.2);
  legend->SetHeight(0.6);
  legend->SetBarRatio(0.25);
  legend->UnconstrainedFontSizeOn();
  for (vtkTextProperty* text : {legend->GetTitleTextProperty(), legend->GetLabelTextProperty()}) {
    text->SetColor(0.15, 0.15, 0.2);
    text->SetFontSize(12);
    text->ShadowOff();
    text->BoldOff();
    text->ItalicOff();
  }
  legend->VisibilityOff();
  return legend;
}

}  // namespace tendril
