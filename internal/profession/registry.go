package profession

// all is ordered for display: the two professions with dedicated landing
// pages in the original product first, then the rest.
var all = []Profession{
	{
		Slug:            "dental",
		DisplayName:     "Dental",
		Practitioner:    "dentist",
		HeroTitle:       "Nail Your Dental School Interviews.",
		HeroSubtitle:    "Practice real dental school questions out loud, on video or audio, and get feedback after every answer on what to keep and what to sharpen.",
		DefaultQuestion: "Why do you want to become a dentist?",
		TipsIntro:       "Dental interviewers are looking for someone patients will trust with their health and their nerves. They want to hear why you chose dentistry, what you learned from time in real clinics, and how you work with people, not how many procedures you can name.",
		Tips: []Tip{
			{
				Title: "Tell an honest why-dentistry story",
				Body:  "Skip the rehearsed line about loving science and helping people. Describe the moment or the pattern that pulled you toward dentistry, what you did about it, and why nothing else would fit as well. A specific, true story beats a polished generic one.",
			},
			{
				Title: "Reflect on your exposure, don't just list it",
				Body:  "Shadowing hours matter less than what you took away from them. Pick one patient, one dentist or one moment in the clinic and say what it taught you about the daily reality of the job: the pace, the business side, the anxious patient in the chair.",
			},
			{
				Title: "Show you can communicate and build trust",
				Body:  "Much of dentistry is explaining a treatment plan, calming a fearful patient and earning consent. Give examples of times you listened first, explained something complex in plain words, or helped someone feel safe.",
			},
			{
				Title: "Put teamwork ahead of technicals",
				Body:  "A dental practice runs on assistants, hygienists, front-desk staff and lab technicians. Talk about how you share credit, handle friction and support a team; interviewers assume you will learn the technical skills in school.",
			},
		},
		QuestionTags:     []string{"dental"},
		InterviewFormats: "Most dental schools use a traditional one-on-one or panel interview, often with a student or faculty member who has read your file; a growing number run MMI stations, and many ask for a Casper-style situational judgment test before inviting you.",
	},
	{
		Slug:            "medical",
		DisplayName:     "Medical",
		Practitioner:    "physician",
		HeroTitle:       "Nail Your Medical School Interviews.",
		HeroSubtitle:    "Rehearse medical school questions and MMI-style scenarios out loud, then get structured feedback after every answer on clarity, content and impression.",
		DefaultQuestion: "Why do you want to become a doctor?",
		TipsIntro:       "Medical school interviews test how you think as much as what you have done. Expect ethical scenarios with no perfect answer, questions about working in a team, and prompts that show whether you keep the patient at the center of every conversation.",
		Tips: []Tip{
			{
				Title: "Reason through ethical scenarios out loud",
				Body:  "In an ethics station, name the people involved, the principles in tension (autonomy, beneficence, non-maleficence, justice), the information you would still want, and a reasonable course of action. Interviewers grade the reasoning, not a single right answer.",
			},
			{
				Title: "Make teamwork concrete",
				Body:  "Medicine is delivered by teams of nurses, pharmacists, therapists and physicians. Describe a real team you were part of, your specific role, a disagreement you handled and what the group achieved because of it.",
			},
			{
				Title: "Keep the patient at the center",
				Body:  "Whether the question is about breaking bad news or a difficult colleague, come back to what the patient needs: honesty, dignity, understanding and a say in their care. Use plain language and show that you listen before you advise.",
			},
			{
				Title: "Connect your experiences to the physician's role",
				Body:  "Clinical hours, research and service all count, but only if you explain what they showed you about being a doctor specifically, as opposed to other ways of helping people. Reflection is what separates strong answers from a recited CV.",
			},
		},
		QuestionTags:     []string{"medical"},
		InterviewFormats: "Many medical schools now run the multiple mini interview (MMI), a circuit of short timed stations with ethical and teamwork scenarios, while others keep traditional one-on-one or panel interviews; many also require a Casper-style situational judgment test, and some a recorded or virtual interview.",
	},
	{
		Slug:            "pt",
		DisplayName:     "Physical Therapy",
		Practitioner:    "physical therapist",
		HeroTitle:       "Nail Your Physical Therapy School Interviews.",
		HeroSubtitle:    "Practice DPT interview questions out loud and get feedback after every answer on how clearly you tell your story and explain your choices.",
		DefaultQuestion: "Why do you want to become a physical therapist?",
		TipsIntro:       "Physical therapy programs want future clinicians who motivate people through slow, hard recoveries. Expect questions about your observation hours, how you encourage someone who is struggling, and how you work alongside physicians, assistants and families.",
		Tips: []Tip{
			{
				Title: "Know why PT and not another profession",
				Body:  "Be ready to explain why physical therapy rather than medicine, athletic training or occupational therapy. Point to what you saw PTs actually do: assess movement, set goals with patients and coach them week after week.",
			},
			{
				Title: "Bring your observation hours to life",
				Body:  "Compare settings if you can, such as outpatient orthopedics against inpatient rehab, and say what surprised you. One patient's progress, described with care, shows more understanding than a total hours figure.",
			},
			{
				Title: "Show how you motivate people",
				Body:  "Much of PT is helping someone keep going when progress is slow or painful. Share times you coached, taught or encouraged someone, and what you did when your first approach did not work.",
			},
			{
				Title: "Speak to the whole care team",
				Body:  "Physical therapists work with PT assistants, aides, physicians, nurses and families. Show you respect each role, communicate clearly and know when to refer someone on.",
			},
		},
		QuestionTags:     []string{"pt"},
		InterviewFormats: "DPT programs commonly hold individual or small-panel interviews, sometimes with a group activity or a short writing sample; some run MMI-style stations, and a few ask for a recorded video interview through a platform such as Kira.",
	},
	{
		Slug:            "pa",
		DisplayName:     "Physician Assistant",
		Practitioner:    "physician assistant",
		HeroTitle:       "Nail Your Physician Assistant School Interviews.",
		HeroSubtitle:    "Practice PA program questions out loud, from patient care experience to the PA-physician team, and get feedback after every answer.",
		DefaultQuestion: "Why do you want to become a physician assistant?",
		TipsIntro:       "PA programs look for applicants who understand the PA role and choose it on purpose. Expect to explain why PA rather than medicine or nursing, to reflect on your patient care hours, and to show you thrive in a collaborative team with physicians.",
		Tips: []Tip{
			{
				Title: "Explain why PA, not MD or NP",
				Body:  "Interviewers will ask. Talk about what draws you to the PA model, such as the generalist training, the ability to move between specialties and team-based practice, without putting other professions down.",
			},
			{
				Title: "Make your patient care hours count",
				Body:  "Programs value hands-on experience. Pick a moment from your work as a scribe, EMT, CNA, medical assistant or similar and say what it taught you about patients and about the PAs you worked next to.",
			},
			{
				Title: "Show you understand the PA-physician team",
				Body:  "Describe collaboration, knowing your limits and asking for help as strengths. Interviewers want to hear that you would consult readily and communicate clearly with your supervising or collaborating physician.",
			},
			{
				Title: "Be ready for group and ethics stations",
				Body:  "Many programs include group exercises or scenario questions. Listen to others, build on their ideas, and reason through ethical dilemmas by weighing the patient's interests and your professional duties.",
			},
		},
		QuestionTags:     []string{"pa"},
		InterviewFormats: "PA programs use a mix of one-on-one and panel interviews, group problem-solving exercises, MMI stations and on-site writing prompts, often several on the same day; some also screen with a Casper-style test or a recorded Kira-style video interview.",
	},
	{
		Slug:            "pharmacy",
		DisplayName:     "Pharmacy",
		Practitioner:    "pharmacist",
		HeroTitle:       "Nail Your Pharmacy School Interviews.",
		HeroSubtitle:    "Practice PharmD interview questions and scenarios out loud and get feedback after every answer on clarity, content and professionalism.",
		DefaultQuestion: "Why do you want to become a pharmacist?",
		TipsIntro:       "Pharmacy interviewers want to see that you understand what pharmacists do beyond counting pills: counseling patients, catching errors, and working with prescribers. Expect scenario questions about patient safety and questions about your pharmacy exposure.",
		Tips: []Tip{
			{
				Title: "Show you know the modern pharmacist's role",
				Body:  "Mention the range of the field, such as community, hospital, ambulatory care, industry and research, and say which parts draw you and why. Interviewers want applicants who know the job is patient-facing.",
			},
			{
				Title: "Put patient safety first in scenarios",
				Body:  "When a question involves a doubtful prescription or a pushy customer, walk through how you would verify, who you would contact and how you would explain it to the patient. Safety and professionalism beat convenience.",
			},
			{
				Title: "Reflect on your pharmacy exposure",
				Body:  "If you have worked as a technician or shadowed a pharmacist, describe a specific interaction, such as a counseling conversation or a caught error, and what it showed you about the responsibility pharmacists carry.",
			},
			{
				Title: "Communicate in plain language",
				Body:  "Pharmacists explain complex regimens to worried people in a few minutes. Practice turning technical information into clear, kind explanations and checking that the other person understood.",
			},
		},
		QuestionTags:     []string{"pharmacy"},
		InterviewFormats: "Pharmacy schools often run MMI stations or a short panel interview, frequently with a timed writing exercise on the day; some use a recorded video interview such as Kira in place of, or before, the live one.",
	},
	{
		Slug:            "ot",
		DisplayName:     "Occupational Therapy",
		Practitioner:    "occupational therapist",
		HeroTitle:       "Nail Your Occupational Therapy School Interviews.",
		HeroSubtitle:    "Practice OT program questions out loud and get feedback after every answer on how clearly you show your understanding of occupation and client-centered care.",
		DefaultQuestion: "Why do you want to become an occupational therapist?",
		TipsIntro:       "OT programs look for applicants who understand occupation, the everyday activities that give people's lives meaning, and who build care around the client's own goals. Expect questions about your observation experiences, creativity and how OT differs from PT.",
		Tips: []Tip{
			{
				Title: "Define occupational therapy in your own words",
				Body:  "Be ready to explain OT simply, as helping people do the things that matter to them, and to contrast it respectfully with physical therapy. A clear definition shows you have done your homework.",
			},
			{
				Title: "Center the client's goals",
				Body:  "OT is client-centered. In any scenario, start by asking what the person wants to be able to do, whether that is cooking, returning to work or playing with their grandchildren, and build from there.",
			},
			{
				Title: "Show creativity and adaptability",
				Body:  "Occupational therapists adapt tasks, tools and environments. Share examples of solving a practical problem in an inventive way or adjusting your plan when something was not working.",
			},
			{
				Title: "Reflect on the settings you observed",
				Body:  "OT spans pediatrics, mental health, hand therapy, rehab and more. Say which settings you saw, how the work differed between them, and what one client taught you about the profession.",
			},
		},
		QuestionTags:     []string{"ot"},
		InterviewFormats: "OT programs typically hold individual or group interviews with faculty, sometimes with a short writing task or group activity; some use MMI-style stations, and a few ask for a recorded video interview through a platform such as Kira.",
	},
	{
		Slug:            "veterinary",
		DisplayName:     "Veterinary Medicine",
		Practitioner:    "veterinarian",
		HeroTitle:       "Nail Your Veterinary School Interviews.",
		HeroSubtitle:    "Practice veterinary school questions and MMI-style scenarios out loud and get feedback after every answer on your reasoning and communication.",
		DefaultQuestion: "Why do you want to become a veterinarian?",
		TipsIntro:       "Veterinary schools want applicants who love animals and also understand the people side of the job: owners making hard decisions, costs, euthanasia, public health and the well-being of the vet team itself. Expect ethical scenarios and questions about your animal and veterinary experience.",
		Tips: []Tip{
			{
				Title: "Go beyond loving animals",
				Body:  "Every applicant loves animals. Explain what you have seen of the real work, including difficult conversations with owners, long hours and the business of a practice, and why you still want it.",
			},
			{
				Title: "Be ready for euthanasia and cost scenarios",
				Body:  "Many stations involve an owner who cannot afford treatment or a decision about ending an animal's suffering. Balance animal welfare, the owner's circumstances and your professional duties, and show compassion for everyone involved.",
			},
			{
				Title: "Show the breadth of veterinary medicine",
				Body:  "Mention experiences across species and settings if you have them, such as small animal, large animal, shelter, research or public health, and what each taught you. Breadth shows you understand the field.",
			},
			{
				Title: "Talk about resilience honestly",
				Body:  "The profession faces real well-being challenges. Interviewers appreciate applicants who can describe how they cope with stress and loss, and how they would support colleagues.",
			},
		},
		QuestionTags:     []string{"veterinary"},
		InterviewFormats: "Many veterinary schools use the MMI, with stations on ethics, communication and teamwork, while others hold a traditional or behavioral panel interview; a number of schools also require the Casper situational judgment test.",
	},
}
