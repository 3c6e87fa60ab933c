// Generated from openapi.json by scripts/generate-limits.mjs (npm run generate): do not edit.
// The limits and enumerations each request declares, keyed by operation id.

export const limits = {
  adminCreateQuestion: {
    body: {
      followUps: {
        maxItems: 4,
      },
      points: {
        maxItems: 6,
        items: {
          cues: {
            maxItems: 12,
            items: {
              maxLength: 60,
            },
          },
          text: {
            minLength: 1,
            maxLength: 160,
          },
        },
      },
      scenario: {
        maxLength: 2000,
      },
      traps: {
        maxItems: 3,
        items: {
          cues: {
            maxItems: 12,
            items: {
              maxLength: 60,
            },
          },
          text: {
            minLength: 1,
            maxLength: 160,
          },
        },
      },
    },
  },
  adminListQuestions: {
    query: {
      profession: {
        maxLength: 64,
      },
      subtag: {
        maxLength: 32,
      },
      q: {
        maxLength: 200,
      },
      page: {
        minimum: 1,
        maximum: 100000,
      },
      pageSize: {
        minimum: 1,
        maximum: 100,
      },
    },
  },
  adminListUsers: {
    query: {
      q: {
        maxLength: 200,
      },
      sort: {
        enum: ["name", "email", "createdAt", "trialExpiresAt", "usageCount", "role"],
      },
      order: {
        enum: ["asc", "desc"],
      },
      page: {
        minimum: 1,
        maximum: 100000,
      },
      pageSize: {
        minimum: 1,
        maximum: 100,
      },
    },
  },
  adminUpdateQuestion: {
    body: {
      followUps: {
        maxItems: 4,
      },
      points: {
        maxItems: 6,
        items: {
          cues: {
            maxItems: 12,
            items: {
              maxLength: 60,
            },
          },
          text: {
            minLength: 1,
            maxLength: 160,
          },
        },
      },
      scenario: {
        maxLength: 2000,
      },
      traps: {
        maxItems: 3,
        items: {
          cues: {
            maxItems: 12,
            items: {
              maxLength: 60,
            },
          },
          text: {
            minLength: 1,
            maxLength: 160,
          },
        },
      },
      version: {
        minimum: 1,
      },
    },
  },
  answerInWriting: {
    body: {
      text: {
        maxLength: 8000,
      },
    },
  },
  appendAnswerPiece: {
    body: {
      maxLength: 4194304,
    },
    query: {
      offset: {
        minimum: 0,
      },
    },
  },
  commentOnSharedSession: {
    body: {
      body: {
        maxLength: 2000,
      },
      itemIndex: {
        minimum: 0,
      },
    },
    query: {
      token: {
        minLength: 1,
        maxLength: 64,
      },
    },
  },
  completePracticeSession: {
    body: {
      totalSessionTime: {
        minimum: 0,
      },
    },
  },
  confirmEmail: {
    body: {
      token: {
        maxLength: 200,
      },
    },
  },
  confirmSecondFactorEnrolment: {
    body: {
      code: {
        maxLength: 64,
      },
    },
  },
  correctTranscript: {
    body: {
      transcript: {
        maxLength: 8000,
      },
    },
  },
  createCheckoutSession: {
    body: {
      profession: {
        enum: ["dental", "medical", "pt", "pa", "pharmacy", "ot", "veterinary"],
      },
    },
  },
  createPracticeSession: {
    body: {
      extension: {
        enum: ["1", "1.25", "1.5", "2", "off"],
      },
      focus: {
        enum: ["", "Ethical", "Behavioral", "Teamwork", "Leadership", "Communication"],
      },
      format: {
        enum: ["traditional", "mmi", "kira", "casper"],
      },
      interviewType: {
        enum: ["random", "custom"],
      },
      mode: {
        enum: ["video", "audio"],
      },
      profession: {
        enum: ["dental", "medical", "pt", "pa", "pharmacy", "ot", "veterinary"],
      },
      questionCount: {
        minimum: 1,
        maximum: 10,
      },
      questions: {
        maxItems: 50,
        items: {
          text: {
            maxLength: 1000,
          },
        },
      },
      timings: {
        answerSeconds: {
          minimum: 10,
          maximum: 600,
        },
        prepSeconds: {
          minimum: 0,
          maximum: 600,
        },
        typedSeconds: {
          minimum: 30,
          maximum: 900,
        },
      },
    },
  },
  createShareLink: {
    body: {
      expiry: {
        enum: ["7-days", "30-days", "until-revoked"],
      },
      reviewerName: {
        maxLength: 80,
      },
      savedSessionId: {
        maxLength: 64,
      },
    },
  },
  deleteMyAccount: {
    body: {
      idToken: {
        maxLength: 8192,
      },
      password: {
        maxLength: 1024,
      },
    },
  },
  finishAnswer: {
    body: {
      browserTranscript: {
        confidence: {
          minimum: 0,
          maximum: 1,
        },
        text: {
          minLength: 1,
          maxLength: 8000,
        },
      },
      size: {
        minimum: 1,
      },
      videoDelivery: {
        darkSeconds: {
          minimum: 0,
        },
        eyeContactSeconds: {
          minimum: 0,
        },
        faceSeconds: {
          minimum: 0,
        },
        frames: {
          minimum: 0,
        },
        framing: {
          cutOffSeconds: {
            minimum: 0,
          },
          offCenterSeconds: {
            minimum: 0,
          },
          tooLargeSeconds: {
            minimum: 0,
          },
          tooSmallSeconds: {
            minimum: 0,
          },
        },
        headMovement: {
          minimum: 0,
          maximum: 360,
        },
        looksAway: {
          maxItems: 12,
          items: {
            atSeconds: {
              minimum: 0,
            },
            seconds: {
              minimum: 2,
            },
            toward: {
              enum: ["down", "up", "left", "right", "out-of-frame"],
            },
          },
        },
        status: {
          enum: ["measured", "unavailable"],
        },
        watchedSeconds: {
          minimum: 0,
        },
      },
    },
  },
  firebaseSignIn: {
    body: {
      idToken: {
        maxLength: 8192,
      },
    },
  },
  forgotPassword: {
    body: {
      email: {
        maxLength: 320,
      },
    },
  },
  getProgress: {
    query: {
      profession: {
        maxLength: 64,
      },
      subtag: {
        enum: ["", "Ethical", "Behavioral", "Teamwork", "Leadership", "Communication"],
      },
    },
  },
  listHistory: {
    query: {
      profession: {
        maxLength: 64,
      },
      format: {
        enum: ["traditional", "mmi", "kira", "casper"],
      },
      q: {
        maxLength: 200,
      },
      page: {
        minimum: 1,
        maximum: 100000,
      },
    },
  },
  listQuestions: {
    query: {
      profession: {
        maxLength: 64,
      },
    },
  },
  listShareComments: {
    query: {
      savedSessionId: {
        maxLength: 64,
      },
    },
  },
  listShareLinks: {
    query: {
      savedSessionId: {
        maxLength: 64,
      },
    },
  },
  login: {
    body: {
      email: {
        maxLength: 320,
      },
      password: {
        maxLength: 1024,
      },
    },
  },
  openSharedSession: {
    query: {
      token: {
        minLength: 1,
        maxLength: 64,
      },
    },
  },
  passSecondFactor: {
    body: {
      code: {
        maxLength: 64,
      },
    },
  },
  recordTry: {
    body: {
      maxLength: 8388608,
    },
  },
  resendVerification: {
    body: {
      email: {
        maxLength: 320,
      },
    },
  },
  resetPassword: {
    body: {
      password: {
        maxLength: 1024,
      },
      token: {
        maxLength: 200,
      },
    },
  },
  savePracticeSession: {
    body: {
      title: {
        maxLength: 120,
      },
    },
  },
  setPracticePreferences: {
    body: {
      hearing: {
        enum: ["device", "browser", "server"],
      },
    },
  },
  signup: {
    body: {
      email: {
        maxLength: 320,
      },
      name: {
        maxLength: 200,
      },
      password: {
        maxLength: 1024,
      },
    },
  },
  typeTry: {
    body: {
      text: {
        minLength: 1,
        maxLength: 4000,
      },
    },
  },
  uploadAnswer: {
    body: {
      maxLength: 26214400,
    },
  },
} as const

// The limits and enumerations of each named schema, requests' and responses'
// alike: its own properties (one that refers to another named schema is listed under that name).
export const schemaLimits = {
  Access: {
    status: {
      enum: ["free_trial_active", "free_trial_expired", "paid_active", "paid_cancelled", "paid_suspended"],
    },
  },
  Answer: {
    kind: {
      enum: ["spoken", "typed"],
    },
    status: {
      enum: ["pending", "queued", "transcribing", "scoring", "done", "failed", "skipped"],
    },
  },
  BrowserTranscript: {
    confidence: {
      minimum: 0,
      maximum: 1,
    },
    text: {
      minLength: 1,
      maxLength: 8000,
    },
  },
  CheckoutBody: {
    profession: {
      enum: ["dental", "medical", "pt", "pa", "pharmacy", "ot", "veterinary"],
    },
  },
  CodeInputBody: {
    code: {
      maxLength: 64,
    },
  },
  CommentBody: {
    body: {
      maxLength: 2000,
    },
    itemIndex: {
      minimum: 0,
    },
  },
  CompetencyShown: {
    competency: {
      enum: ["ethical-responsibility", "empathy-compassion", "teamwork", "oral-communication", "reliability", "resilience-adaptability", "service-orientation", "cultural-humility", "critical-thinking"],
    },
  },
  CompleteInputBody: {
    totalSessionTime: {
      minimum: 0,
    },
  },
  CorrectInputBody: {
    transcript: {
      maxLength: 8000,
    },
  },
  CreateBody: {
    expiry: {
      enum: ["7-days", "30-days", "until-revoked"],
    },
    reviewerName: {
      maxLength: 80,
    },
    savedSessionId: {
      maxLength: 64,
    },
  },
  CreateInput: {
    extension: {
      enum: ["1", "1.25", "1.5", "2", "off"],
    },
    focus: {
      enum: ["", "Ethical", "Behavioral", "Teamwork", "Leadership", "Communication"],
    },
    format: {
      enum: ["traditional", "mmi", "kira", "casper"],
    },
    interviewType: {
      enum: ["random", "custom"],
    },
    mode: {
      enum: ["video", "audio"],
    },
    profession: {
      enum: ["dental", "medical", "pt", "pa", "pharmacy", "ot", "veterinary"],
    },
    questionCount: {
      minimum: 1,
      maximum: 10,
    },
    questions: {
      maxItems: 50,
    },
  },
  CustomQuestion: {
    text: {
      maxLength: 1000,
    },
  },
  DeleteAccountInputBody: {
    idToken: {
      maxLength: 8192,
    },
    password: {
      maxLength: 1024,
    },
  },
  Delivery: {
    darkSeconds: {
      minimum: 0,
    },
    eyeContactSeconds: {
      minimum: 0,
    },
    faceSeconds: {
      minimum: 0,
    },
    frames: {
      minimum: 0,
    },
    headMovement: {
      minimum: 0,
      maximum: 360,
    },
    looksAway: {
      maxItems: 12,
    },
    status: {
      enum: ["measured", "unavailable"],
    },
    watchedSeconds: {
      minimum: 0,
    },
  },
  DownloadCard: {
    key: {
      enum: ["interview-tips", "interview-day-checklist", "thank-you-emails"],
    },
  },
  EmailInputBody: {
    email: {
      maxLength: 320,
    },
  },
  Evidence: {
    level: {
      minimum: 0,
      maximum: 7,
    },
    unjudged: {
      enum: ["not-measured", "too-uncertain"],
    },
  },
  Feedback: {
    competencies: {
      items: {
        enum: ["ethical-responsibility", "empathy-compassion", "teamwork", "oral-communication", "reliability", "resilience-adaptability", "service-orientation", "cultural-humility", "critical-thinking"],
      },
    },
  },
  FinishInputBody: {
    size: {
      minimum: 1,
    },
  },
  FirebaseInputBody: {
    idToken: {
      maxLength: 8192,
    },
  },
  Framing: {
    cutOffSeconds: {
      minimum: 0,
    },
    offCenterSeconds: {
      minimum: 0,
    },
    tooLargeSeconds: {
      minimum: 0,
    },
    tooSmallSeconds: {
      minimum: 0,
    },
  },
  GuideCard: {
    key: {
      enum: ["pricing", "resources", "ethics", "communication", "pitfalls", "about", "privacy", "terms"],
    },
  },
  Heading: {
    level: {
      minimum: 2,
      maximum: 3,
    },
  },
  Item: {
    kind: {
      enum: ["spoken", "typed"],
    },
    status: {
      enum: ["pending", "queued", "transcribing", "scoring", "done", "failed", "skipped"],
    },
  },
  Link: {
    expiry: {
      enum: ["7-days", "30-days", "until-revoked"],
    },
    state: {
      enum: ["active", "expired", "revoked"],
    },
  },
  LoginBody: {
    secondFactor: {
      enum: ["enrol", "code"],
    },
  },
  LoginInputBody: {
    email: {
      maxLength: 320,
    },
    password: {
      maxLength: 1024,
    },
  },
  LookAway: {
    atSeconds: {
      minimum: 0,
    },
    seconds: {
      minimum: 2,
    },
    toward: {
      enum: ["down", "up", "left", "right", "out-of-frame"],
    },
  },
  Metrics: {
    fillersSource: {
      enum: ["engine", "estimated"],
    },
    source: {
      enum: ["recognised", "aligned", "recognisedInstead"],
    },
    wordConfidence: {
      enum: ["lattice", "word", "segment", "alignment", "none"],
    },
  },
  Page: {
    key: {
      enum: ["pricing", "resources", "ethics", "communication", "pitfalls", "about", "privacy", "terms"],
    },
  },
  Payment: {
    status: {
      enum: ["paid", "refunded", "disputed", "dispute_lost", "unrecognised"],
    },
  },
  PaymentsModeOutputBody: {
    mode: {
      enum: ["stripe", "simulated", "off"],
    },
  },
  Point: {
    cues: {
      maxItems: 12,
      items: {
        maxLength: 60,
      },
    },
    text: {
      minLength: 1,
      maxLength: 160,
    },
  },
  Practice: {
    focus: {
      enum: ["", "Ethical", "Behavioral", "Teamwork", "Leadership", "Communication"],
    },
  },
  Preferences: {
    hearing: {
      enum: ["device", "browser", "server"],
    },
  },
  Preset: {
    format: {
      enum: ["traditional", "mmi", "kira", "casper"],
    },
  },
  Progress: {
    subtags: {
      items: {
        enum: ["", "Ethical", "Behavioral", "Teamwork", "Leadership", "Communication"],
      },
    },
  },
  Question: {
    followUps: {
      maxItems: 4,
    },
    points: {
      maxItems: 6,
    },
    scenario: {
      maxLength: 2000,
    },
    subtag: {
      enum: ["", "Ethical", "Behavioral", "Teamwork", "Leadership", "Communication"],
    },
    traps: {
      maxItems: 3,
    },
    version: {
      minimum: 1,
    },
  },
  QuestionEdit: {
    followUps: {
      maxItems: 4,
    },
    points: {
      maxItems: 6,
    },
    scenario: {
      maxLength: 2000,
    },
    traps: {
      maxItems: 3,
    },
    version: {
      minimum: 1,
    },
  },
  QuestionInput: {
    followUps: {
      maxItems: 4,
    },
    points: {
      maxItems: 6,
    },
    scenario: {
      maxLength: 2000,
    },
    traps: {
      maxItems: 3,
    },
  },
  RedFlag: {
    key: {
      enum: ["override-consent", "deception", "falsified-records", "coercion", "confidentiality", "contempt", "blame", "tolerating-dishonesty", "money-motive", "achievement-list", "disguised-strength", "different-question", "addresses-scorer", "question-trap"],
    },
  },
  ResetInputBody: {
    password: {
      maxLength: 1024,
    },
    token: {
      maxLength: 200,
    },
  },
  ReviewedSession: {
    format: {
      enum: ["traditional", "mmi", "kira", "casper"],
    },
  },
  Saved: {
    format: {
      enum: ["traditional", "mmi", "kira", "casper"],
    },
  },
  SavedItem: {
    kind: {
      enum: ["spoken", "typed"],
    },
    status: {
      enum: ["pending", "queued", "transcribing", "scoring", "done", "failed", "skipped"],
    },
  },
  SaveInputBody: {
    title: {
      maxLength: 120,
    },
  },
  Session: {
    extension: {
      enum: ["1", "1.25", "1.5", "2", "off"],
    },
    format: {
      enum: ["traditional", "mmi", "kira", "casper"],
    },
    interviewType: {
      enum: ["random", "custom"],
    },
    mode: {
      enum: ["video", "audio"],
    },
    status: {
      enum: ["active", "completed"],
    },
  },
  SignupInputBody: {
    email: {
      maxLength: 320,
    },
    name: {
      maxLength: 200,
    },
    password: {
      maxLength: 1024,
    },
  },
  SpeechInfo: {
    engine: {
      enum: ["local", "service"],
    },
  },
  Timings: {
    answerSeconds: {
      minimum: 10,
      maximum: 600,
    },
    prepSeconds: {
      minimum: 0,
      maximum: 600,
    },
    typedSeconds: {
      minimum: 30,
      maximum: 900,
    },
  },
  TokenInputBody: {
    token: {
      maxLength: 200,
    },
  },
  Try: {
    kind: {
      enum: ["spoken", "typed"],
    },
    status: {
      enum: ["pending", "queued", "transcribing", "scoring", "done", "failed", "skipped"],
    },
  },
  TypedInputBody: {
    text: {
      maxLength: 8000,
    },
  },
  TypedTry: {
    text: {
      minLength: 1,
      maxLength: 4000,
    },
  },
  User: {
    role: {
      enum: ["user", "admin"],
    },
  },
  UserSummary: {
    role: {
      enum: ["user", "admin"],
    },
  },
} as const
