"""Loads libsegue with ctypes, as a Python host would, and renders one frame of `fade`.

Usage: python3 ctypes_test.py PATH/TO/libsegue.so
Prints the version and the middle pixel; exits 1 with a message when a check fails.
"""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
P = ctypes.c_void_p
ERR = ctypes.POINTER(P)
lib.segue_version.restype = ctypes.c_char_p
lib.segue_error_message.restype = ctypes.c_char_p
lib.segue_error_message.argtypes = [P]
lib.segue_error_free.argtypes = [P]
lib.segue_context_create.restype = P
lib.segue_context_create.argtypes = [ctypes.c_char_p, ERR]
lib.segue_context_destroy.argtypes = [P]
lib.segue_transition_create.restype = P
lib.segue_transition_create.argtypes = [P, ctypes.c_char_p, ERR]
lib.segue_transition_duration.restype = ctypes.c_double
lib.segue_transition_duration.argtypes = [P]
lib.segue_transition_render.restype = ctypes.c_int
lib.segue_transition_render.argtypes = [P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint32, ctypes.c_uint32,
                                        ctypes.c_size_t, ctypes.c_double, ctypes.c_double, ctypes.c_char_p, ERR]
lib.segue_transition_destroy.argtypes = [P]
lib.segue_builtin_count.restype = ctypes.c_size_t
lib.segue_builtin_name.restype = ctypes.c_char_p
lib.segue_builtin_name.argtypes = [ctypes.c_size_t]


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


names = [lib.segue_builtin_name(i).decode() for i in range(lib.segue_builtin_count())]
if "doom-melt" not in names:
    fail("doom-melt not listed: %r" % names[:5])

error = P()
context = lib.segue_context_create(None, ctypes.byref(error))
if not context:
    fail("context: " + lib.segue_error_message(error).decode())
fade = lib.segue_transition_create(context, b"fade", ctypes.byref(error))
if not fade:
    fail("fade: " + lib.segue_error_message(error).decode())
width, height = 4, 2
black = bytes([0, 0, 0, 255]) * (width * height)
white = bytes([255, 255, 255, 255]) * (width * height)
out = ctypes.create_string_buffer(width * height * 4)
if lib.segue_transition_render(fade, black, white, width, height, width * 4, 0.25, 0.25, out, ctypes.byref(error)) != 0:
    fail("render: " + lib.segue_error_message(error).decode())
pixel = list(out.raw[:4])
if not (63 <= pixel[0] <= 65 and pixel[3] == 255):
    fail("fade at 0.25 of black to white gave %r" % pixel)
if lib.segue_transition_duration(fade) != 1.0:
    fail("fade's duration is %r" % lib.segue_transition_duration(fade))
lib.segue_transition_destroy(fade)
lib.segue_context_destroy(context)
print(lib.segue_version().decode(), pixel)
