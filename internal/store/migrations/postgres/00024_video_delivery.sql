-- +goose Up
-- Issue 42. What the student's browser measured of a video answer (eye
-- contact, framing, steadiness: video.Delivery, as JSON), sent with the
-- finish call; only these numbers leave the device. And whether the
-- student lets their browser measure it at all.
ALTER TABLE practice_items ADD COLUMN video_delivery TEXT;
ALTER TABLE practice_preferences ADD COLUMN watch_video BOOLEAN NOT NULL DEFAULT TRUE;

-- +goose Down
ALTER TABLE practice_preferences DROP COLUMN watch_video;
ALTER TABLE practice_items DROP COLUMN video_delivery;
