#include "core/sim/vectorised_nvector.hpp"

#include <Eigen/Core>
#include <cmath>

namespace tendril::detail {
namespace {

using Array = Eigen::Map<Eigen::ArrayXd>;

Array array(N_Vector x) {
  return {NV_DATA_S(x), NV_LENGTH_S(x)};
}

// z = a x + b y (z may be x or y: every entry is read before it is written)
void linearSum(double a, N_Vector x, double b, N_Vector y, N_Vector z) {
  array(z) = a * array(x) + b * array(y);
}

void constant(double c, N_Vector z) {
  array(z).setConstant(c);
}

void product(N_Vector x, N_Vector y, N_Vector z) {
  array(z) = array(x) * array(y);
}

void quotient(N_Vector x, N_Vector y, N_Vector z) {
  array(z) = array(x) / array(y);
}

void scale(double c, N_Vector x, N_Vector z) {
  array(z) = c * array(x);
}

void absolute(N_Vector x, N_Vector z) {
  array(z) = array(x).abs();
}

void inverse(N_Vector x, N_Vector z) {
  array(z) = array(x).inverse();
}

void addConstant(N_Vector x, double b, N_Vector z) {
  array(z) = array(x) + b;
}

double maxNorm(N_Vector x) {
  return NV_LENGTH_S(x) > 0 ? array(x).abs().maxCoeff() : 0.0;
}

double weightedSquareSum(N_Vector x, N_Vector w) {
  return (array(x) * array(w)).square().sum();
}

double weightedRmsNorm(N_Vector x, N_Vector w) {
  return std::sqrt(weightedSquareSum(x, w) / static_cast<double>(NV_LENGTH_S(x)));
}

// z = sum_i c_i X_i. As in SUNDIALS, z may be X_0, and with two terms (a linear sum) X_1 too
int linearCombination(int count, double* c, N_Vector* X, N_Vector z) {
  if (count == 2) {
    linearSum(c[0], X[0], c[1], X[1], z);
    return 0;
  }
  Array out = array(z);
  if (z == X[0]) {
    if (c[0] != 1.0) out *= c[0];
  } else {
    out = c[0] * array(X[0]);
  }
  for (int i = 1; i < count; ++i) out += c[i] * array(X[i]);
  return 0;
}

// Z_i = a_i x + Y_i
int scaleAddMulti(int count, double* a, N_Vector x, N_Vector* Y, N_Vector* Z) {
  for (int i = 0; i < count; ++i) array(Z[i]) = a[i] * array(x) + array(Y[i]);
  return 0;
}

}  // namespace

void useVectorisedOperations(N_Vector v) {
  N_Vector_Ops ops = v->ops;
  ops->nvlinearsum = linearSum;
  ops->nvconst = constant;
  ops->nvprod = product;
  ops->nvdiv = quotient;
  ops->nvscale = scale;
  ops->nvabs = absolute;
  ops->nvinv = inverse;
  ops->nvaddconst = addConstant;
  ops->nvmaxnorm = maxNorm;
  ops->nvmaxnormlocal = maxNorm;
  ops->nvwrmsnorm = weightedRmsNorm;
  ops->nvwsqrsumlocal = weightedSquareSum;
  ops->nvlinearcombination = linearCombination;
  ops->nvscaleaddmulti = scaleAddMulti;
}

}  // namespace tendril::detail
