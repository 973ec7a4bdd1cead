# Build stage: a wheel with the detectors compiled by mypyc (detectors/native.py), about
# 1.5x faster than the pure-Python build; needs a C compiler, which the full image has.
FROM python:3.11 AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md requirements.lock ./
COPY pipeline ./pipeline
COPY detectors ./detectors
COPY models ./models
# leakline-client: leakline/__init__.py and leakline.client (its schema links into pipeline/)
COPY client ./client
RUN pip wheel --no-cache-dir --no-deps -w /wheels ./client \
    && LEAKLINE_COMPILE=1 pip wheel --no-cache-dir --no-deps -w /wheels .

FROM python:3.11-slim
COPY --from=build /wheels /wheels
COPY requirements.lock /tmp/requirements.lock
# the exact versions the tests ran with (pyproject.toml holds only ranges)
RUN pip install --no-cache-dir -c /tmp/requirements.lock /wheels/*.whl \
    && rm -rf /wheels /tmp/requirements.lock
ENTRYPOINT []
CMD ["leakline", "worker"]
