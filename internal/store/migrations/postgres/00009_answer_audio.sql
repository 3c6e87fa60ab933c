-- +goose Up
-- A recorded answer lives in the database until it is transcribed (issue
-- 17), so that whichever copy of the server runs its job can read it: the
-- recording at path (as practice_items.audio_path or stream_path names
-- it) in pieces, each starting at offset_bytes. A copy's disk holds only
-- a scratch file made from these rows. Deleted once the answer is
-- transcribed or abandoned, and with the item.
CREATE TABLE practice_audio (
    path         TEXT NOT NULL,
    offset_bytes BIGINT NOT NULL,
    item_id      TEXT NOT NULL REFERENCES practice_items (id) ON DELETE CASCADE,
    data         BYTEA NOT NULL,
    PRIMARY KEY (path, offset_bytes)
);
CREATE INDEX practice_audio_item ON practice_audio (item_id);

-- +goose Down
DROP TABLE practice_audio;
