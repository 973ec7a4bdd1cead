FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY pipeline ./pipeline
COPY detectors ./detectors
COPY models ./models
RUN pip install --no-cache-dir .
ENTRYPOINT []
CMD ["leakline", "worker"]
