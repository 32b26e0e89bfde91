"""A small TensorFlow Lite interpreter over the runtime that ``pyopen-wakeword`` bundles.

``pyopen-wakeword`` creates its interpreters with default options: TFLite's own kernels on an
automatic thread count. Measured here on the embedding model (the bulk of the wake stage), one
thread instead costs 3.2 ms a step rather than 4.6, and the XNNPACK delegate on one thread 1.2 ms.
This wrapper runs every model that way and otherwise only copies float32 arrays in and out.
"""

from __future__ import annotations

import ctypes as C
import os
from pathlib import Path

import numpy as np
import pyopen_wakeword

_FLOAT32 = 1
"""``kTfLiteFloat32`` in TFLite's C API."""


class _XnnpackOptions(C.Structure):
    """The head of ``TfLiteXNNPackDelegateOptions``. The struct has grown across TFLite versions;
    the padding holds the fields this module leaves at the defaults TFLite fills in."""

    _fields_ = (("num_threads", C.c_int32), ("flags", C.c_uint32), ("_rest", C.c_byte * 256))


def _runtime() -> C.CDLL:
    """The bundled ``libtensorflowlite_c`` with the prototypes this module calls.

    Each model opens it again: the dynamic loader maps the library once per process, so this
    costs microseconds and keeps no module-level state.
    """
    lib_dir = Path(pyopen_wakeword.__file__).parent / "lib"
    found = sorted(lib_dir.glob("*tensorflowlite_c.*"))
    if not found:
        raise RuntimeError(f"pyopen-wakeword has no TensorFlow Lite runtime in {lib_dir}")
    lib = C.CDLL(str(found[0]), mode=os.RTLD_GLOBAL)
    vp, i32 = C.c_void_p, C.c_int32
    prototypes: dict[str, tuple[list[object], object]] = {
        "TfLiteModelCreateFromFile": ([C.c_char_p], vp),
        "TfLiteModelDelete": ([vp], None),
        "TfLiteInterpreterOptionsCreate": ([], vp),
        "TfLiteInterpreterOptionsSetNumThreads": ([vp, i32], None),
        "TfLiteInterpreterOptionsDelete": ([vp], None),
        "TfLiteInterpreterOptionsAddDelegate": ([vp, vp], None),
        "TfLiteXNNPackDelegateOptionsDefault": ([], _XnnpackOptions),
        "TfLiteXNNPackDelegateCreate": ([C.POINTER(_XnnpackOptions)], vp),
        "TfLiteXNNPackDelegateDelete": ([vp], None),
        "TfLiteInterpreterCreate": ([vp, vp], vp),
        "TfLiteInterpreterDelete": ([vp], None),
        "TfLiteInterpreterResizeInputTensor": ([vp, i32, C.POINTER(i32), i32], C.c_int),
        "TfLiteInterpreterAllocateTensors": ([vp], C.c_int),
        "TfLiteInterpreterInvoke": ([vp], C.c_int),
        "TfLiteInterpreterGetInputTensor": ([vp, i32], vp),
        "TfLiteInterpreterGetOutputTensor": ([vp, i32], vp),
        "TfLiteTensorType": ([vp], i32),
        "TfLiteTensorNumDims": ([vp], i32),
        "TfLiteTensorDim": ([vp, i32], i32),
        "TfLiteTensorCopyFromBuffer": ([vp, vp, C.c_size_t], C.c_int),
        "TfLiteTensorCopyToBuffer": ([vp, vp, C.c_size_t], C.c_int),
    }
    for name, (argtypes, restype) in prototypes.items():
        if name.startswith("TfLiteXNNPack") and not hasattr(lib, name):
            continue  # a runtime built without XNNPACK: TfLiteModel uses TFLite's own kernels
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = restype
    return lib


class TfLiteModel:
    """One ``.tflite`` model with a float32 input and output, run on a fixed number of threads."""

    def __init__(
        self, path: Path, *, threads: int = 1, input_shape: tuple[int, ...] | None = None
    ) -> None:
        """Load ``path``; ``input_shape`` resizes the first input (for models with free axes)."""
        self.path = path
        self._lib = lib = _runtime()
        self._model = lib.TfLiteModelCreateFromFile(str(path).encode())
        if not self._model:
            raise ValueError(f"{path} is not a TensorFlow Lite model")
        options = lib.TfLiteInterpreterOptionsCreate()
        lib.TfLiteInterpreterOptionsSetNumThreads(options, threads)
        self._delegate = None
        if hasattr(lib, "TfLiteXNNPackDelegateCreate"):
            xnnpack = lib.TfLiteXNNPackDelegateOptionsDefault()
            xnnpack.num_threads = threads
            # The delegate must outlive the interpreter, so close() frees it after it
            self._delegate = lib.TfLiteXNNPackDelegateCreate(C.byref(xnnpack))
            lib.TfLiteInterpreterOptionsAddDelegate(options, self._delegate)
        self._interpreter = lib.TfLiteInterpreterCreate(self._model, options)
        lib.TfLiteInterpreterOptionsDelete(options)
        if not self._interpreter:
            self.close()
            raise ValueError(f"TensorFlow Lite cannot run {path}")
        if input_shape is not None:
            dims = (C.c_int32 * len(input_shape))(*input_shape)
            lib.TfLiteInterpreterResizeInputTensor(self._interpreter, 0, dims, len(input_shape))
        if lib.TfLiteInterpreterAllocateTensors(self._interpreter) != 0:
            self.close()
            raise ValueError(f"TensorFlow Lite cannot allocate the tensors of {path}")
        self._input = lib.TfLiteInterpreterGetInputTensor(self._interpreter, 0)
        self._output = lib.TfLiteInterpreterGetOutputTensor(self._interpreter, 0)
        for tensor, role in ((self._input, "input"), (self._output, "output")):
            if lib.TfLiteTensorType(tensor) != _FLOAT32:
                self.close()
                raise ValueError(f"{path} has a {role} that is not float32")
        self.input_shape = self._shape(self._input)
        self.output_shape = self._shape(self._output)

    def _shape(self, tensor: int) -> tuple[int, ...]:
        count = self._lib.TfLiteTensorNumDims(tensor)
        return tuple(self._lib.TfLiteTensorDim(tensor, axis) for axis in range(count))

    def run(self, values: np.ndarray) -> np.ndarray:
        """Run the model on ``values`` (float32, the input's shape) and return its output."""
        values = np.ascontiguousarray(values, dtype=np.float32)
        lib = self._lib
        if lib.TfLiteTensorCopyFromBuffer(self._input, values.ctypes.data, values.nbytes) != 0:
            raise ValueError(f"{self.path} takes {self.input_shape}, not {values.shape}")
        if lib.TfLiteInterpreterInvoke(self._interpreter) != 0:
            raise RuntimeError(f"TensorFlow Lite failed to run {self.path}")
        result = np.empty(self.output_shape, dtype=np.float32)
        lib.TfLiteTensorCopyToBuffer(self._output, result.ctypes.data, result.nbytes)
        return result

    def close(self) -> None:
        """Free the interpreter and the model (also done when the object is collected)."""
        if getattr(self, "_interpreter", None):
            self._lib.TfLiteInterpreterDelete(self._interpreter)
            self._interpreter = None
        if getattr(self, "_delegate", None):
            self._lib.TfLiteXNNPackDelegateDelete(self._delegate)
            self._delegate = None
        if getattr(self, "_model", None):
            self._lib.TfLiteModelDelete(self._model)
            self._model = None

    def __del__(self) -> None:
        self.close()
