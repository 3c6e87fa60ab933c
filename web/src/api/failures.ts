// Generated from openapi.json by scripts/generate-failures.mjs (npm run generate): do not edit.
// The failures the server tells apart: the problem type it answers with, and the spec's words for each.

export const failures = {
  checkoutFailed: {
    type: "urn:whitecoat:problem:checkout-failed",
    message: "Something went wrong. Please try again.",
  },
  feedbackFailed: {
    type: "urn:whitecoat:problem:feedback-failed",
    message: "Error generating feedback",
  },
  incompleteNewQuestion: {
    type: "urn:whitecoat:problem:incomplete-new-question",
    message: "Please complete all fields.",
  },
  incompleteQuestionEdit: {
    type: "urn:whitecoat:problem:incomplete-question-edit",
    message: "All fields required",
  },
  questionEditedMeanwhile: {
    type: "urn:whitecoat:problem:question-edited-meanwhile",
    message: "Another admin saved this question after you opened it, so your edit was not saved. Check their version, then save yours again.",
  },
  shareLinkExpired: {
    type: "urn:whitecoat:problem:share-link-expired",
    message: "This link has expired. Ask the student for a new one if you would still like to comment.",
  },
  shareLinkNotFound: {
    type: "urn:whitecoat:problem:share-link-not-found",
    message: "This link does not work. Check that it was copied in full, or ask the student for a new one.",
  },
  shareLinkRevoked: {
    type: "urn:whitecoat:problem:share-link-revoked",
    message: "The student has turned this link off. Ask them for a new one if you would still like to comment.",
  },
  tooManyTriesFromNetwork: {
    type: "urn:whitecoat:problem:too-many-tries-from-network",
    message: "Too many tries from your network right now — sign up to keep practicing.",
  },
  tooManyTriesOverall: {
    type: "urn:whitecoat:problem:too-many-tries-overall",
    message: "Too many people are trying Whitecoat right now — sign up to keep practicing.",
  },
  tryFailed: {
    type: "urn:whitecoat:problem:try-failed",
    message: "We could not score this answer. Check that your microphone is on and try again, or type your answer.",
  },
} as const
