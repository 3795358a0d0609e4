/** Unit tests run without the local stack: a complete, fake configuration so modules can load. */
process.env.SNAG_STAGE ??= 'local';
process.env.TABLE_NAME ??= 'snag-unit';
process.env.UPLOADS_BUCKET ??= 'snag-unit-uploads';
process.env.FANOUT_QUEUE_URL ??= 'http://127.0.0.1:9/000000000000/snag-fanout';
process.env.DELIVERY_QUEUE_URL ??= 'http://127.0.0.1:9/000000000000/snag-delivery';
process.env.APP_ORIGIN ??= 'http://localhost:3000';
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_REGION ??= 'eu-central-1';
