// Generated from openapi.json by scripts/generate-limits.mjs (npm run generate): do not edit.
// The limits and enumerations each request declares, keyed by operation id.

export const limits = {
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
  createCheckoutSession: {
    body: {
      profession: {
        enum: ["dental", "medical", "pt", "pa", "pharmacy", "ot", "veterinary"],
      },
    },
  },
  createPracticeSession: {
    body: {
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
    },
  },
  deleteMyAccount: {
    body: {
      password: {
        maxLength: 1024,
      },
    },
  },
  finishAnswer: {
    body: {
      size: {
        minimum: 1,
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
  listHistory: {
    query: {
      profession: {
        maxLength: 64,
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
  passSecondFactor: {
    body: {
      code: {
        maxLength: 64,
      },
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
  uploadAnswer: {
    body: {
      maxLength: 26214400,
    },
  },
} as const
