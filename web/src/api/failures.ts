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
} as const
