// SPDX-License-Identifier: MIT
// The kernel matrix as an operator: dense, Nystrom or random features.
#pragma once

#include "core/kernels/kernel.h"
#include "core/kernels/packed_symmetric.h"
#include "core/kernels/sdo_profile.h"
#include "core/kernels/sparse_symmetric.h"
#include "core/types.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sosrep {

/// A field f(y) = sum_i w_i k(x_i, y) and, on request, its gradient and Laplacian in y, all in
/// units of the unit-diagonal kernel and scaled by exp(-logShift) per point (so that exponential
/// kernels in high dimension never underflow): f(y) = value * exp(logShift).
/// Ratios such as grad f / f and lap f / f do not depend on the shift.
struct FieldValues
{
    Vector value;
    Vector logShift;
    Matrix gradient; // rows = query points (empty unless requested)
    Vector laplacian;
};

/// How K is applied to coefficient vectors.
enum class KernelBackend
{
    Dense,   // N x N matrix in memory
    Sparse,  // the entries above kSparseTolerance of the diagonal, O(nnz) per product (issue 48)
    LowRank, // random Fourier features: K a = Phi (Phi^T a), never forming N x N (design.md 2)
    Nystrom  // M landmarks: K ~ K_nm K_mm^+ K_mn, O(N M) per product and memory
};

/// What Auto predicts for a length scale: the back-end it takes, the sparse kernel's entries
/// (estimated from a sample of rows) and why.
struct BackendPlan
{
    KernelBackend backend = KernelBackend::Dense;
    double predictedNonZeros = 0.0; // of the sparse kernel (both triangles); 0 when not looked
    std::string reason;
};

/// The kernel of a fitted model on its training points, normalized to unit diagonal
/// (k / k(x, x); design.md section 1). Gaussian and Laplace are dense; SDO either uses random
/// Fourier features (arXiv eq. 12 with the 2 pi and scale of design.md section 2), applied
/// through the features when T < N and as a dense matrix otherwise, or the exact radial profile
/// (SdoProfile, Prop. 7: k / k(x, x) = g(r / l) / g(0)) as a dense matrix.
///
/// Gaussian and Laplace kernels may be held sparse (BackendChoice::Sparse, or Auto where it is
/// predicted cheaper): entries beyond truncationRadius() are left out, found with a k-d tree.
/// Auto compares the predicted cost of a product, per length scale (planBackend): dense N^2/2
/// packed entries, sparse nnz (from a sample of rows), Nystroem 2 N M. Evaluations at new points
/// stay exact sums over every centre, except at the sweep's validation rows, where a sparse
/// kernel's field is summed over the centres within the truncation radius of the nearest one.
///
/// Beyond KernelSpec::kAutoDenseRows rows (or on request) Gaussian, Laplace and exact SDO use the
/// Nystroem approximation K ~ K_nm K_mm^+ K_mn with M landmarks drawn from the training rows
/// (seeded; K_mm^+ from its eigendecomposition, eigenvalues below 1e-8 of the largest dropped).
/// The model's field is then a kernel sum over the landmarks, f(y) = sum_m c_m k(l_m, y) with
/// c = K_mm^+ K_mn alpha, so values, gradients and Laplacians stay exact for that field.
class KdTree;
class SweepWorkspace;

class KernelOperator
{
public:
    /// With a sweep's workspace a dense kernel is built from its stored distances, into its
    /// recycled storage, at its precision, and evaluations at its validation rows use its
    /// stored distances (SweepWorkspace); without, everything is computed here, in double.
    KernelOperator(const MatrixRef& train, const KernelSpec& spec,
                   const std::shared_ptr<SweepWorkspace>& workspace = nullptr);

    /// The kernel of a model read from a file: evaluating its field at new points needs only
    /// the training rows, so the dense N x N matrix (784 MB for 14 000 rows, for a file of
    /// 14 000 x d numbers) is built on first use, by apply() or applyMany(), if ever.
    static std::shared_ptr<const KernelOperator> forScoring(const MatrixRef& train,
                                                            const KernelSpec& spec);
    /// A kernel density estimate's kernel: its values are sums over every training row, so they
    /// stay exact at any N (evaluated block by block, no matrix) unless the low-rank back-end is
    /// asked for; forScoring() would hold the exact SDO kernel by Nystroem landmarks beyond
    /// KernelSpec::kAutoDenseRows rows, as a SOSREP fit there does.
    static std::shared_ptr<const KernelOperator> forExactSums(const MatrixRef& train,
                                                              const KernelSpec& spec);
    /// The same for a model whose weights were fitted on `fitted` (dense or sparse): its
    /// backendName() says which.
    static std::shared_ptr<const KernelOperator> forScoring(const KernelOperator& fitted);

    /// The back-end Auto takes for `spec` on these rows, with single- or double-precision
    /// entries; `tree` is theirs, or null (then built here when needed, and handed back).
    /// Explicit choices are returned as they are.
    static BackendPlan planBackend(const MatrixRef& train, const KernelSpec& spec,
                                   std::shared_ptr<const KdTree>& tree, bool singlePrecision);

    /// A kernel given as a symmetric unit-diagonal matrix (e.g. the paper's two-block model,
    /// eq. 67). Only apply() is available: there are no points to evaluate at.
    static KernelOperator fromMatrix(const MatrixRef& kernelMatrix);

    Eigen::Index size() const { return m_train.rows(); }
    int dim() const { return static_cast<int>(m_train.cols()); }
    const KernelSpec& spec() const { return m_spec; }
    const Matrix& train() const { return m_train; }
    KernelBackend backend() const { return m_backend; }
    std::string backendName() const;
    /// Rank of the low-rank back-end (landmarks or features); 0 when dense.
    int rank() const;
    /// Entries the sparse back-end holds (both triangles), or held when the model's weights
    /// were fitted (forScoring(fitted)); 0 for the other back-ends.
    long long nonZeros() const { return std::max(m_sparse.nonZeros(), m_fittedNonZeros); }
    /// Nystroem: training rows whose kernel value to every landmark is below 1e-6. There the
    /// approximation is ~0 (l is finer than the landmarks can resolve), so f(x_i) cannot be
    /// positive and SOSREP cannot be fitted at this l.
    Eigen::Index uncoveredRows() const { return m_uncovered; }

    /// Whether K may have negative entries (SDO; a given matrix with one): then a positive alpha
    /// need not give a positive f = K alpha, and the solvers take care (design.md section 1).
    bool hasNegativeEntries() const { return m_negativeEntries; }

    /// log k(x, x) in the kernel's own units (0 for Gaussian and Laplace).
    double logDiagonal() const { return m_logDiagonal; }

    /// K a with the unit-diagonal kernel. O(N^2) dense, O(N T) low rank. Parallel over rows.
    Vector apply(const VectorRef& a) const;
    /// The diagonal of K as apply() uses it: 1 for the exact kernels; for Nystroem
    /// k_i^T K_mm^+ k_i, far below 1 at rows the landmarks cover poorly (O(N M r), r the kept
    /// rank: a few kernel products' worth); for random features the squared feature norms.
    Vector diagonal() const;

    /// K A for several coefficient columns at once (equal to apply() per column up to rounding).
    Matrix applyMany(const MatrixRef& a) const;

    /// Evaluates f(y) = sum_i w_i k(x_i, y) at the rows of `y`; gradient and Laplacian if asked.
    FieldValues evaluate(const MatrixRef& y, const VectorRef& weights, bool derivatives) const;

    /// The field f = sum_i w_i k(x_i, .) as a kernel sum over centres: the training rows with the
    /// weights themselves, or the Nystroem landmarks with c = K_mm^+ K_mn w. False for random
    /// features, which have no centres.
    bool fieldAsKernelSum(const VectorRef& w, Matrix* centres, Vector* coefficients) const;

    /// Gaussian kernel only: log of the integral of f^2 over R^d for f = sum_i w_i k(x_i, .).
    /// With k(x, y) = exp(-|x - y|^2 / 2l^2), the product of two kernels is a Gaussian in x, so
    /// int f^2 = (pi l^2)^(d/2) c^T K' c with K' the Gaussian kernel at length scale l sqrt(2)
    /// over the centres (one kernel product; computed in logs, so it stays finite in high
    /// dimension). Throws std::logic_error for other kernels.
    double logSquaredFieldIntegral(const VectorRef& w) const;

    /// Unit-diagonal kernel values between two point sets (rows of a and b).
    Matrix crossKernel(const MatrixRef& a, const MatrixRef& b) const;
    /// Squared distances between two point sets, block by block as the exact kernel between
    /// them computes them (so a kernel made from them has the same bits).
    static Matrix crossDistances(const MatrixRef& a, const MatrixRef& b);

    /// Radial kernels (Gaussian, Laplace, exact SDO): the unit-diagonal profile k(r) and its first
    /// and second derivatives in r. False for random features.
    bool radialProfile(double r, double& k, double& dk, double& d2k) const;

    /// RFF: the field's weights in feature space, f(y) = sum_t v_t cos(2 pi <z_t, y> + b_t)
    /// with v = sqrt(2/T) Phi^T w; empty for other back-ends.
    Vector featureWeights(const VectorRef& w) const;

    /// The random Fourier frequencies (T x d) and phases for SDO; empty otherwise.
    const Matrix& frequencies() const { return m_freq; }
    const Vector& phases() const { return m_phase; }

private:
    KernelOperator() = default;
    KernelOperator(const MatrixRef& train, const KernelSpec& spec,
                   const std::shared_ptr<SweepWorkspace>& workspace, bool deferDense,
                   bool lowRankOnlyIfAsked = false);
    /// A dense N x N kernel (its packed lower triangle) beyond limits::kMaxMatrixBytes (N =
    /// 31620 in double) throws ParameterError instead of exhausting memory.
    static void checkDenseMemory(Eigen::Index n, PackedSymmetric::Precision precision);
    /// The dense kernel: from the workspace's distances when it serves these rows.
    void buildDense(const SweepWorkspace* workspace) const;
    /// The dense matrix of forScoring()'s operator, built once (thread-safe) on first use.
    void ensureDense() const;
    Matrix features(const MatrixRef& x) const; // N x T, unit-diagonal scaling sqrt(2/T)
    FieldValues evaluateExponential(const Matrix& centres, const MatrixRef& y, const VectorRef& w,
                                    bool deriv) const;
    FieldValues evaluateFeatures(const MatrixRef& y, const VectorRef& w, bool deriv) const;
    FieldValues evaluateRadial(const Matrix& centres, const MatrixRef& y, const VectorRef& w,
                               bool deriv) const;
    /// The exact (not low-rank) unit-diagonal kernel between two point sets.
    Matrix exactCross(const MatrixRef& a, const MatrixRef& b) const;
    /// The same from their squared distances (crossDistances(a, b): a Nystroem sweep's cache).
    Matrix kernelFromDistances(const Matrix& d2) const;
    /// Rows first.. of `out` from the squared distances d2 of those rows (a block of
    /// exactCross).
    void kernelOfDistances(const Matrix& d2, Matrix& out, Eigen::Index first) const;
    void buildNystrom();
    /// Nystroem with repeated rows: a (N x c) summed over each distinct row's copies, and a
    /// distinct-row result given back to every row; both pass-through without repeats.
    Matrix sumsOverRepeats(const MatrixRef& a) const;
    Matrix toEveryRow(const MatrixRef& distinct) const;
    /// The sparse kernel, its tree from the workspace when it serves these rows.
    void buildSparse(const SweepWorkspace* workspace) const;
    /// evaluate() of a sparse kernel at the sweep's validation rows: per query, the centres
    /// within the truncation radius beyond the nearest centre (the terms left out are below
    /// kSparseTolerance of the nearest one's).
    FieldValues evaluateSparse(const MatrixRef& y, const VectorRef& w, bool deriv) const;
    bool exactSdo() const { return m_profile != nullptr; }

    Matrix m_train;
    KernelSpec m_spec;
    KernelBackend m_backend = KernelBackend::Dense;
    double m_logDiagonal = 0.0;
    bool m_negativeEntries = false;
    /// A copy gets a flag of its own (std::once_flag cannot be copied).
    struct OnceFlag
    {
        std::once_flag flag;
        OnceFlag() = default;
        OnceFlag(const OnceFlag&) {}
        OnceFlag& operator=(const OnceFlag&) { return *this; }
    };
    mutable PackedSymmetric m_dense;      // N x N when dense (its lower triangle)
    mutable bool m_denseDeferred = false; // forScoring(): the matrix not built yet
    bool m_deferredSparse = false;        // forScoring(): the matrix, once built, is sparse
    mutable OnceFlag m_denseOnce;
    Matrix m_phi;                                // N x T features (SDO)
    Matrix m_freq;                               // T x d frequencies z_t for this length scale
    Vector m_phase;                              // T phases b_t
    std::shared_ptr<const SdoProfile> m_profile; // exact SDO
    Matrix m_landmarks;                          // M x d (Nystroem)
    Matrix m_knm;                                // N x M (distinct rows x M when rows repeat)
    /// Nystroem on rows that repeat exactly: each row's row of m_knm (empty: one per row).
    std::vector<Eigen::Index> m_distinctOf;
    Matrix m_pinv;       // M x M, K_mm^+
    Matrix m_pinvFactor; // M x r, K_mm^+ = F F^T (diagonal())
    Eigen::Index m_uncovered = 0;
    mutable SparseSymmetric m_sparse;             // Sparse (or a deferred sparse matrix)
    mutable std::shared_ptr<const KdTree> m_tree; // Sparse: the training rows' tree
    std::string m_fittedWith;                     // forScoring(fitted): the fit's back-end name
    long long m_fittedNonZeros = 0;               // and its sparse kernel's entries
    /// Not owned: a model that outlives its sweep computes its distances afresh.
    std::weak_ptr<const SweepWorkspace> m_workspace;
};

} // namespace sosrep
