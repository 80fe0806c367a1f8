"""The blueprint's documenting decorators (``doc``, ``alt_response``, and so ``errors``) give the view its
documentation without a call layer, and each decoration its own function, as flask-smorest's wrappers did."""

from __future__ import annotations

from api.blueprint import Blueprint

blp = Blueprint("documenting", __name__)


def view(a, b=2, *, c=3):
    """A view."""
    return a + b + c


def test_a_documented_view_runs_its_own_code_with_its_defaults():
    documented = blp.doc(summary="A")(view)
    assert documented.__code__ is view.__code__ and not hasattr(documented, "__wrapped__")
    assert documented(1) == 6 and documented(1, 1, c=1) == 3
    assert (documented.__name__, documented.__doc__) == ("view", "A view.")


def test_each_decoration_keeps_its_own_documentation():
    one = blp.doc(summary="A")(view)
    two = blp.doc(description="B")(view)
    assert one is not view and two is not one
    assert one._apidoc == {"manual_doc": {"summary": "A"}}
    assert two._apidoc == {"manual_doc": {"description": "B"}}
    assert "_apidoc" not in view.__dict__


def test_stacked_decorators_merge_their_documentation():
    stacked = blp.alt_response(404, description="gone")(blp.doc(summary="A")(view))
    assert stacked._apidoc["manual_doc"] == {"summary": "A"}
    assert stacked._apidoc["response"]["responses"][404][0]["description"] == "gone"
    assert stacked(1) == 6


def test_a_view_that_is_no_plain_function_keeps_flask_smorests_wrapper(app):
    class Callable:
        def __call__(self, a):
            return a

    documented = blp.doc(summary="A")(Callable())
    with app.app_context():  # the wrapper asks the app to make the call synchronous
        assert documented(5) == 5
    assert documented._apidoc == {"manual_doc": {"summary": "A"}}
