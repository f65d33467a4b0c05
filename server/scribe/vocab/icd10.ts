/**
 * ICD-10 codes for common outpatient diagnoses. Codes are WHO ICD-10 (what Indian clinics use); where WHO and the
 * US ICD-10-CM differ the WHO code is kept (A09.9, J45.9). Display texts are our own short descriptions.
 *
 * One code a line: code | display | synonyms and lay names (comma separated)
 */
const TABLE = `
A00.9|Cholera, unspecified|cholera
A01.0|Typhoid fever|enteric fever,typhoid,typhoid fever,salmonella typhi infection
A01.4|Paratyphoid fever, unspecified|paratyphoid,paratyphoid fever
A02.0|Salmonella enteritis|salmonella enteritis,salmonella gastroenteritis
A03.9|Shigellosis, unspecified|shigellosis,bacillary dysentery
A04.7|Enterocolitis due to Clostridium difficile|clostridium difficile colitis,c difficile infection
A05.9|Bacterial foodborne intoxication, unspecified|food poisoning,foodborne illness,bacterial food poisoning
A06.0|Acute amoebic dysentery|amoebic dysentery,amoebiasis,amebiasis,amoebic colitis
A07.1|Giardiasis|giardiasis,giardia infection
A08.4|Viral intestinal infection, unspecified|viral gastroenteritis,viral diarrhoea,viral diarrhea
A09.0|Other and unspecified gastroenteritis and colitis of infectious origin|infectious gastroenteritis,infective diarrhoea,infective diarrhea,infectious diarrhea,acute infective gastroenteritis
A09.9|Gastroenteritis and colitis of unspecified origin|gastroenteritis,acute gastroenteritis,diarrhoea,diarrhea,loose motions,acute diarrhoea,acute diarrhea,dysentery,stomach flu
A15.0|Tuberculosis of lung, confirmed by sputum microscopy|sputum positive pulmonary tuberculosis,sputum positive tb
A16.2|Tuberculosis of lung, without mention of bacteriological or histological confirmation|pulmonary tuberculosis,pulmonary tb,tuberculosis,tb,koch's,kochs
A18.2|Tuberculous peripheral lymphadenopathy|tuberculous lymphadenitis,tb lymphadenitis,scrofula
A27.9|Leptospirosis, unspecified|leptospirosis
A37.9|Whooping cough, unspecified|whooping cough,pertussis
A38|Scarlet fever|scarlet fever
A46|Erysipelas|erysipelas
A49.9|Bacterial infection, unspecified|bacterial infection
A53.9|Syphilis, unspecified|syphilis
A54.9|Gonococcal infection, unspecified|gonorrhoea,gonorrhea,gonococcal infection
A56.0|Chlamydial infection of lower genitourinary tract|chlamydia,chlamydial infection
A59.0|Urogenital trichomoniasis|trichomoniasis,trichomonas vaginitis
A60.0|Herpesviral infection of genitalia and urogenital tract|genital herpes
A63.0|Anogenital (venereal) warts|genital warts,anogenital warts,condyloma
A64|Unspecified sexually transmitted disease|sexually transmitted disease,sexually transmitted infection,std,sti
A75.3|Typhus fever due to Rickettsia tsutsugamushi|scrub typhus
A77.9|Spotted fever, unspecified|spotted fever,rickettsial fever,rickettsial infection
A82.9|Rabies, unspecified|rabies
A83.0|Japanese encephalitis|japanese encephalitis
A87.9|Viral meningitis, unspecified|viral meningitis
A90|Dengue fever [classical dengue]|dengue,dengue fever
A91|Dengue haemorrhagic fever|dengue haemorrhagic fever,dengue hemorrhagic fever,severe dengue,dengue shock syndrome
A92.0|Chikungunya virus disease|chikungunya,chikungunya fever
B00.1|Herpesviral vesicular dermatitis|herpes labialis,cold sore,fever blister,herpes simplex
B00.9|Herpesviral infection, unspecified|herpes simplex infection,hsv infection
B01.9|Varicella without complication|chickenpox,chicken pox,varicella
B02.9|Zoster without complication|herpes zoster,shingles,zoster
B05.9|Measles without complication|measles,rubeola
B06.9|Rubella without complication|rubella,german measles
B07|Viral warts|warts,wart,viral warts,verruca,common wart,plantar wart
B08.1|Molluscum contagiosum|molluscum contagiosum,molluscum
B08.4|Enteroviral vesicular stomatitis with exanthem|hand foot and mouth disease,hand foot mouth disease,hfmd
B09|Unspecified viral infection characterized by skin and mucous membrane lesions|viral exanthem,viral rash
B15.9|Hepatitis A without hepatic coma|hepatitis a,acute hepatitis a,infective hepatitis
B16.9|Acute hepatitis B without delta-agent and without hepatic coma|acute hepatitis b
B18.1|Chronic viral hepatitis B without delta-agent|chronic hepatitis b,hepatitis b,hbsag positive,hepatitis b carrier
B18.2|Chronic viral hepatitis C|chronic hepatitis c,hepatitis c,hcv infection
B17.2|Acute hepatitis E|hepatitis e,acute hepatitis e
B19.9|Unspecified viral hepatitis without hepatic coma|viral hepatitis,acute viral hepatitis,hepatitis
B24|Unspecified human immunodeficiency virus [HIV] disease|hiv,hiv infection,hiv disease,aids
B26.9|Mumps without complication|mumps
B27.9|Infectious mononucleosis, unspecified|infectious mononucleosis,glandular fever
B30.9|Viral conjunctivitis, unspecified|viral conjunctivitis
B34.9|Viral infection, unspecified|viral fever,viral infection,viral illness,viral syndrome
B35.0|Tinea barbae and tinea capitis|tinea capitis,scalp ringworm
B35.1|Tinea unguium|tinea unguium,onychomycosis,fungal nail infection
B35.3|Tinea pedis|tinea pedis,athlete's foot,athletes foot
B35.4|Tinea corporis|tinea corporis,ringworm,body ringworm
B35.6|Tinea cruris|tinea cruris,jock itch,groin fungal infection
B35.9|Dermatophytosis, unspecified|dermatophytosis,tinea,fungal skin infection,fungal infection
B36.0|Pityriasis versicolor|pityriasis versicolor,tinea versicolor
B37.0|Candidal stomatitis|oral candidiasis,oral thrush,thrush
B37.2|Candidiasis of skin and nail|cutaneous candidiasis,candidal intertrigo,intertrigo
B37.3|Candidiasis of vulva and vagina|vulvovaginal candidiasis,vaginal candidiasis,vaginal yeast infection,vaginal thrush,candidal vaginitis,monilial vaginitis
B37.9|Candidiasis, unspecified|candidiasis,candida infection,yeast infection
B50.9|Plasmodium falciparum malaria, unspecified|falciparum malaria,pf malaria
B51.9|Plasmodium vivax malaria without complication|vivax malaria,pv malaria
B54|Unspecified malaria|malaria
B65.9|Schistosomiasis, unspecified|schistosomiasis
B67.9|Echinococcosis, other and unspecified|hydatid cyst,echinococcosis
B68.9|Taeniasis, unspecified|tapeworm infestation,taeniasis
B69.0|Cysticercosis of central nervous system|neurocysticercosis
B76.9|Hookworm disease, unspecified|hookworm infestation,hookworm
B77.9|Ascariasis, unspecified|ascariasis,roundworm infestation,roundworms
B80|Enterobiasis|enterobiasis,pinworm,pinworms,threadworm,threadworms
B82.0|Intestinal helminthiasis, unspecified|intestinal worm infestation,worm infestation,intestinal worms,worms,helminthiasis,intestinal helminthiasis
B82.9|Intestinal parasitism, unspecified|intestinal parasites,intestinal parasitism
B85.0|Pediculosis due to Pediculus humanus capitis|head lice,pediculosis capitis,lice
B86|Scabies|scabies
B87.9|Myiasis, unspecified|myiasis,maggots
C02.9|Malignant neoplasm of tongue, unspecified|tongue cancer,carcinoma tongue
C06.9|Malignant neoplasm of mouth, unspecified|oral cancer,mouth cancer,carcinoma oral cavity
C15.9|Malignant neoplasm of oesophagus, unspecified|oesophageal cancer,esophageal cancer
C16.9|Malignant neoplasm of stomach, unspecified|stomach cancer,gastric cancer,carcinoma stomach
C18.9|Malignant neoplasm of colon, unspecified|colon cancer,colorectal cancer,carcinoma colon
C20|Malignant neoplasm of rectum|rectal cancer,carcinoma rectum
C22.0|Liver cell carcinoma|hepatocellular carcinoma,liver cancer,hcc
C25.9|Malignant neoplasm of pancreas, unspecified|pancreatic cancer,carcinoma pancreas
C32.9|Malignant neoplasm of larynx, unspecified|laryngeal cancer,carcinoma larynx
C34.9|Malignant neoplasm of bronchus or lung, unspecified|lung cancer,carcinoma lung,bronchogenic carcinoma
C43.9|Malignant melanoma of skin, unspecified|melanoma,malignant melanoma
C44.9|Malignant neoplasm of skin, unspecified|skin cancer,basal cell carcinoma,squamous cell carcinoma of skin
C50.9|Malignant neoplasm of breast, unspecified|breast cancer,carcinoma breast
C53.9|Malignant neoplasm of cervix uteri, unspecified|cervical cancer,carcinoma cervix
C56|Malignant neoplasm of ovary|ovarian cancer,carcinoma ovary
C61|Malignant neoplasm of prostate|prostate cancer,carcinoma prostate
C64|Malignant neoplasm of kidney, except renal pelvis|kidney cancer,renal cell carcinoma
C67.9|Malignant neoplasm of bladder, unspecified|bladder cancer,carcinoma bladder
C71.9|Malignant neoplasm of brain, unspecified|brain tumour,brain tumor,brain cancer
C73|Malignant neoplasm of thyroid gland|thyroid cancer,carcinoma thyroid
C81.9|Hodgkin lymphoma, unspecified|hodgkin lymphoma,hodgkin's disease
C85.9|Non-Hodgkin lymphoma, unspecified type|non hodgkin lymphoma,lymphoma
C90.0|Multiple myeloma|multiple myeloma,myeloma
C91.0|Acute lymphoblastic leukaemia|acute lymphoblastic leukaemia,acute lymphoblastic leukemia
C92.1|Chronic myeloid leukaemia|chronic myeloid leukaemia,chronic myeloid leukemia,cml
C95.9|Leukaemia, unspecified|leukaemia,leukemia,blood cancer
D10.0|Benign neoplasm of lip|lip fibroma
D17.9|Benign lipomatous neoplasm, unspecified|lipoma
D18.0|Haemangioma, any site|haemangioma,hemangioma
D21.9|Benign neoplasm of connective and other soft tissue, unspecified|fibroma,soft tissue swelling benign
D22.9|Melanocytic naevi, unspecified|mole,naevus,nevus,melanocytic naevus
D23.9|Benign neoplasm of skin, unspecified|skin tag,acrochordon,benign skin lesion
D24|Benign neoplasm of breast|fibroadenoma,fibroadenoma breast,benign breast lump
D25.9|Leiomyoma of uterus, unspecified|uterine fibroid,fibroid uterus,fibroids,leiomyoma,myoma
D27|Benign neoplasm of ovary|benign ovarian tumour,dermoid cyst
D34|Benign neoplasm of thyroid gland|thyroid adenoma
D50.0|Iron deficiency anaemia secondary to blood loss (chronic)|anaemia due to blood loss,anemia due to chronic blood loss
D50.9|Iron deficiency anaemia, unspecified|iron deficiency anaemia,iron deficiency anemia,ida,microcytic anaemia,microcytic hypochromic anaemia
D51.9|Vitamin B12 deficiency anaemia, unspecified|vitamin b12 deficiency anaemia,b12 deficiency anemia,pernicious anaemia,megaloblastic anaemia
D52.9|Folate deficiency anaemia, unspecified|folate deficiency anaemia,folic acid deficiency anemia
D53.9|Nutritional anaemia, unspecified|nutritional anaemia,nutritional anemia
D56.1|Beta thalassaemia|beta thalassaemia major,thalassaemia major,thalassemia major
D56.3|Thalassaemia trait|thalassaemia trait,thalassemia trait,thalassaemia minor,thalassemia minor
D56.9|Thalassaemia, unspecified|thalassaemia,thalassemia
D57.1|Sickle-cell anaemia without crisis|sickle cell anaemia,sickle cell anemia,sickle cell disease
D61.9|Aplastic anaemia, unspecified|aplastic anaemia,aplastic anemia
D63.8|Anaemia in other chronic diseases classified elsewhere|anaemia of chronic kidney disease,anemia of chronic kidney disease,anaemia of ckd,anemia of ckd,renal anaemia,renal anemia,anaemia of chronic disease,anemia of chronic disease
D64.9|Anaemia, unspecified|anaemia,anemia,low haemoglobin,low hemoglobin,pallor anaemia
D69.0|Allergic purpura|henoch schonlein purpura,allergic purpura,hsp
D69.3|Idiopathic thrombocytopenic purpura|itp,immune thrombocytopenia,idiopathic thrombocytopenic purpura
D69.6|Thrombocytopenia, unspecified|thrombocytopenia,low platelets,low platelet count
D72.1|Eosinophilia|eosinophilia,tropical eosinophilia
D75.1|Secondary polycythaemia|polycythaemia,polycythemia
E01.0|Iodine-deficiency-related diffuse (endemic) goitre|endemic goitre,iodine deficiency goitre
E03.9|Hypothyroidism, unspecified|hypothyroidism,hypothyroid,underactive thyroid,low thyroid
E04.9|Nontoxic goitre, unspecified|goitre,goiter,thyroid swelling,multinodular goitre
E04.1|Nontoxic single thyroid nodule|thyroid nodule,solitary thyroid nodule
E05.9|Thyrotoxicosis, unspecified|hyperthyroidism,thyrotoxicosis,hyperthyroid,overactive thyroid
E05.0|Thyrotoxicosis with diffuse goitre|graves disease,graves' disease
E06.3|Autoimmune thyroiditis|hashimoto's thyroiditis,hashimoto thyroiditis,autoimmune thyroiditis
E06.9|Thyroiditis, unspecified|thyroiditis
E02|Subclinical iodine-deficiency hypothyroidism|subclinical hypothyroidism
E10.9|Type 1 diabetes mellitus without complications|type 1 diabetes mellitus,type 1 diabetes,t1dm,insulin dependent diabetes,juvenile diabetes,type 1 diabetic
E10.1|Type 1 diabetes mellitus with ketoacidosis|diabetic ketoacidosis,dka
E11.2|Type 2 diabetes mellitus with renal complications|type 2 diabetes mellitus with diabetic nephropathy,type 2 diabetes with diabetic nephropathy,type 2 diabetes with nephropathy,diabetic nephropathy,diabetic kidney disease,type 2 diabetes with kidney disease
E11.3|Type 2 diabetes mellitus with ophthalmic complications|diabetic retinopathy,type 2 diabetes with retinopathy
E11.4|Type 2 diabetes mellitus with neurological complications|diabetic neuropathy,diabetic peripheral neuropathy,type 2 diabetes with neuropathy,diabetic polyneuropathy
E11.5|Type 2 diabetes mellitus with peripheral circulatory complications|diabetic foot,diabetic foot ulcer,diabetic peripheral vascular disease
E11.6|Type 2 diabetes mellitus with other specified complications|type 2 diabetes with other specified complications
E11.7|Type 2 diabetes mellitus with multiple complications|type 2 diabetes with multiple complications
E11.8|Type 2 diabetes mellitus with unspecified complications|type 2 diabetes with complications
E11.9|Type 2 diabetes mellitus without complications|type 2 diabetes mellitus,type 2 diabetes,t2dm,type 2 diabetic,dm type 2,diabetes mellitus type 2,non insulin dependent diabetes,niddm,diabetes mellitus,diabetes,diabetic,dm,uncontrolled diabetes,uncontrolled type 2 diabetes
E13.9|Other specified diabetes mellitus without complications|secondary diabetes
E16.2|Hypoglycaemia, unspecified|hypoglycaemia,hypoglycemia,low blood sugar
E21.0|Primary hyperparathyroidism|hyperparathyroidism,primary hyperparathyroidism
E22.0|Acromegaly and pituitary gigantism|acromegaly
E22.1|Hyperprolactinaemia|hyperprolactinaemia,hyperprolactinemia,high prolactin
E23.0|Hypopituitarism|hypopituitarism
E24.9|Cushing syndrome, unspecified|cushing syndrome,cushing's syndrome
E27.1|Primary adrenocortical insufficiency|addison's disease,addison disease,adrenal insufficiency
E28.2|Polycystic ovarian syndrome|polycystic ovarian syndrome,polycystic ovary syndrome,pcos,pcod,polycystic ovarian disease,polycystic ovaries
E34.3|Short stature, not elsewhere classified|short stature
E44.0|Moderate protein-energy malnutrition|moderate malnutrition,moderate acute malnutrition
E43|Unspecified severe protein-energy malnutrition|severe malnutrition,severe acute malnutrition,sam
E46|Unspecified protein-energy malnutrition|malnutrition,undernutrition,protein energy malnutrition,pem
E53.8|Deficiency of other specified B group vitamins|vitamin b12 deficiency,b12 deficiency,cobalamin deficiency,folate deficiency
E55.0|Rickets, active|rickets
E55.9|Vitamin D deficiency, unspecified|vitamin d deficiency,vitamin d insufficiency,low vitamin d,hypovitaminosis d
E56.9|Vitamin deficiency, unspecified|vitamin deficiency,multivitamin deficiency
E58|Dietary calcium deficiency|calcium deficiency
E61.1|Iron deficiency|iron deficiency,iron deficiency without anaemia,low ferritin
E63.9|Nutritional deficiency, unspecified|nutritional deficiency
E66.0|Obesity due to excess calories|obesity due to excess calories
E66.9|Obesity, unspecified|obesity,obese,morbid obesity,overweight
E78.0|Pure hypercholesterolaemia|hypercholesterolaemia,hypercholesterolemia,high cholesterol,raised cholesterol,elevated ldl
E78.1|Pure hyperglyceridaemia|hypertriglyceridaemia,hypertriglyceridemia,high triglycerides
E78.2|Mixed hyperlipidaemia|mixed hyperlipidaemia,mixed hyperlipidemia,mixed dyslipidaemia,combined hyperlipidaemia
E78.5|Hyperlipidaemia, unspecified|dyslipidaemia,dyslipidemia,hyperlipidaemia,hyperlipidemia,lipid disorder,deranged lipids
E79.0|Hyperuricaemia without signs of inflammatory arthritis and tophaceous disease|hyperuricaemia,hyperuricemia,high uric acid,raised uric acid
E83.5|Disorders of calcium metabolism|hypocalcaemia,hypocalcemia,hypercalcaemia,hypercalcemia
E86|Volume depletion|dehydration,volume depletion,mild dehydration,moderate dehydration,some dehydration
E87.1|Hypo-osmolality and hyponatraemia|hyponatraemia,hyponatremia,low sodium
E87.5|Hyperkalaemia|hyperkalaemia,hyperkalemia,high potassium
E87.6|Hypokalaemia|hypokalaemia,hypokalemia,low potassium
E88.8|Other specified metabolic disorders|metabolic syndrome
F03|Unspecified dementia|dementia,senile dementia
F10.0|Mental and behavioural disorders due to use of alcohol: acute intoxication|alcohol intoxication,acute alcohol intoxication,drunkenness
F10.1|Mental and behavioural disorders due to use of alcohol: harmful use|alcohol abuse,harmful use of alcohol,harmful alcohol use
F10.2|Mental and behavioural disorders due to use of alcohol: dependence syndrome|alcohol dependence syndrome,alcohol dependence,alcoholism,alcohol use disorder,chronic alcoholism
F10.3|Mental and behavioural disorders due to use of alcohol: withdrawal state|alcohol withdrawal,alcohol withdrawal state,alcohol withdrawal syndrome,uncomplicated alcohol withdrawal,uncomplicated withdrawal
F10.4|Mental and behavioural disorders due to use of alcohol: withdrawal state with delirium|delirium tremens,alcohol withdrawal delirium
F11.2|Mental and behavioural disorders due to use of opioids: dependence syndrome|opioid dependence,opioid use disorder,heroin addiction
F12.2|Mental and behavioural disorders due to use of cannabinoids: dependence syndrome|cannabis dependence,cannabis use disorder
F17.2|Mental and behavioural disorders due to use of tobacco: dependence syndrome|tobacco dependence,nicotine dependence,smoking addiction,tobacco use disorder
F20.9|Schizophrenia, unspecified|schizophrenia
F23.9|Acute and transient psychotic disorder, unspecified|acute psychosis,brief psychotic disorder
F29|Unspecified nonorganic psychosis|psychosis
F31.9|Bipolar affective disorder, unspecified|bipolar disorder,bipolar affective disorder,manic depression
F32.0|Mild depressive episode|mild depression,mild depressive episode,major depressive disorder mild
F32.1|Moderate depressive episode|moderate depression,moderate depressive episode,major depressive disorder moderate,moderate major depressive disorder
F32.2|Severe depressive episode without psychotic symptoms|severe depression,severe depressive episode,major depressive disorder severe
F32.9|Depressive episode, unspecified|depression,depressive episode,major depressive disorder,depressive disorder
F33.0|Recurrent depressive disorder, current episode mild|recurrent depressive disorder current episode mild,major depressive disorder recurrent mild,recurrent mild depression
F33.1|Recurrent depressive disorder, current episode moderate|recurrent depressive disorder current episode moderate,major depressive disorder recurrent moderate,recurrent moderate depression
F33.2|Recurrent depressive disorder, current episode severe without psychotic symptoms|recurrent depressive disorder current episode severe,major depressive disorder recurrent severe,recurrent severe depression
F33.9|Recurrent depressive disorder, unspecified|recurrent depression,recurrent depressive disorder
F34.1|Dysthymia|dysthymia,persistent depressive disorder
F40.1|Social phobias|social phobia,social anxiety disorder
F41.0|Panic disorder [episodic paroxysmal anxiety]|panic disorder,panic attacks
F41.1|Generalized anxiety disorder|generalized anxiety disorder,generalised anxiety disorder,gad
F41.2|Mixed anxiety and depressive disorder|mixed anxiety and depressive disorder,anxiety with depression
F41.9|Anxiety disorder, unspecified|anxiety,anxiety disorder,anxiety neurosis
F42.9|Obsessive-compulsive disorder, unspecified|obsessive compulsive disorder,ocd
F43.0|Acute stress reaction|acute stress reaction
F43.1|Post-traumatic stress disorder|post traumatic stress disorder,ptsd
F43.2|Adjustment disorders|adjustment disorder
F44.9|Dissociative [conversion] disorder, unspecified|conversion disorder,dissociative disorder
F45.9|Somatoform disorder, unspecified|somatoform disorder,somatization
F48.0|Neurasthenia|neurasthenia
F50.0|Anorexia nervosa|anorexia nervosa
F50.2|Bulimia nervosa|bulimia nervosa,bulimia
F51.0|Nonorganic insomnia|insomnia,chronic insomnia,primary insomnia,sleeplessness,difficulty sleeping
F52.2|Failure of genital response|erectile dysfunction psychogenic
F70.9|Mild mental retardation|intellectual disability,mild intellectual disability
F80.9|Developmental disorder of speech and language, unspecified|speech delay,delayed speech,language delay
F84.0|Childhood autism|autism,autism spectrum disorder,asd
F90.0|Disturbance of activity and attention|adhd,attention deficit hyperactivity disorder,hyperactivity
F95.2|Combined vocal and multiple motor tic disorder [de la Tourette]|tourette syndrome,tourette's
F98.0|Nonorganic enuresis|enuresis,bedwetting,bed wetting,nocturnal enuresis
G03.9|Meningitis, unspecified|meningitis
G04.9|Encephalitis, myelitis and encephalomyelitis, unspecified|encephalitis
G20|Parkinson disease|parkinson's disease,parkinson disease,parkinsonism,parkinsons
G25.0|Essential tremor|essential tremor,benign essential tremor
G25.8|Other specified extrapyramidal and movement disorders|restless legs syndrome,restless leg syndrome
G30.9|Alzheimer disease, unspecified|alzheimer's disease,alzheimer disease,alzheimers
G35|Multiple sclerosis|multiple sclerosis
G40.3|Generalized idiopathic epilepsy and epileptic syndromes|idiopathic generalised epilepsy,idiopathic generalized epilepsy,generalised idiopathic epilepsy,juvenile myoclonic epilepsy,childhood absence epilepsy
G40.9|Epilepsy, unspecified|epilepsy,seizure disorder,epileptic
G41.9|Status epilepticus, unspecified|status epilepticus
G43.0|Migraine without aura [common migraine]|migraine without aura,common migraine
G43.1|Migraine with aura [classical migraine]|migraine with aura,classical migraine
G43.9|Migraine, unspecified|migraine,migraine headache
G44.0|Cluster headache syndrome|cluster headache
G44.2|Tension-type headache|tension headache,tension type headache
G44.4|Drug-induced headache, not elsewhere classified|medication overuse headache,analgesic overuse headache,rebound headache,drug induced headache
G45.9|Transient cerebral ischaemic attack, unspecified|transient ischaemic attack,transient ischemic attack,tia,mini stroke
G47.3|Sleep apnoea|sleep apnoea,sleep apnea,obstructive sleep apnoea,obstructive sleep apnea,osa
G50.0|Trigeminal neuralgia|trigeminal neuralgia
G51.0|Bell palsy|bell's palsy,bell palsy,bells palsy,facial palsy,facial nerve palsy
G54.2|Cervical root disorders, not elsewhere classified|cervical radiculopathy
G56.0|Carpal tunnel syndrome|carpal tunnel syndrome,cts
G57.1|Meralgia paraesthetica|meralgia paraesthetica,meralgia paresthetica
G61.0|Guillain-Barré syndrome|guillain barre syndrome,gbs
G62.9|Polyneuropathy, unspecified|peripheral neuropathy,polyneuropathy,neuropathy
G70.0|Myasthenia gravis|myasthenia gravis
G80.9|Cerebral palsy, unspecified|cerebral palsy
G93.3|Postviral fatigue syndrome|chronic fatigue syndrome,postviral fatigue syndrome
H00.0|Hordeolum and other deep inflammation of eyelid|stye,sty,hordeolum
H00.1|Chalazion|chalazion
H01.0|Blepharitis|blepharitis
H04.1|Other disorders of lacrimal gland|dry eye,dry eyes,dry eye syndrome,dry eye disease
H04.5|Stenosis and insufficiency of lacrimal passages|nasolacrimal duct obstruction,blocked tear duct
H10.0|Mucopurulent conjunctivitis|mucopurulent conjunctivitis,bacterial conjunctivitis,purulent conjunctivitis
H10.1|Acute atopic conjunctivitis|allergic conjunctivitis,atopic conjunctivitis,vernal conjunctivitis
H10.3|Acute conjunctivitis, unspecified|acute conjunctivitis,conjunctivitis acute
H10.9|Conjunctivitis, unspecified|conjunctivitis,pink eye,red eye,eye flu,sore eyes
H11.0|Pterygium|pterygium
H16.9|Keratitis, unspecified|keratitis,corneal ulcer
H20.0|Acute and subacute iridocyclitis|acute anterior uveitis,acute iridocyclitis,acute iritis,subacute anterior uveitis
H20.9|Iridocyclitis, unspecified|uveitis,iritis,iridocyclitis
H25.9|Senile cataract, unspecified|senile cataract,age related cataract
H26.9|Cataract, unspecified|cataract
H33.0|Retinal detachment with retinal break|retinal detachment
H35.3|Degeneration of macula and posterior pole|macular degeneration,age related macular degeneration,armd
H40.0|Glaucoma suspect|ocular hypertension,raised intraocular pressure,raised iop,elevated intraocular pressure,high intraocular pressure,glaucoma suspect
H40.1|Primary open-angle glaucoma|open angle glaucoma,primary open angle glaucoma,poag
H40.9|Glaucoma, unspecified|glaucoma
H50.9|Strabismus, unspecified|squint,strabismus
H52.0|Hypermetropia|hypermetropia,hyperopia,long sightedness,farsightedness
H52.1|Myopia|myopia,short sightedness,nearsightedness
H52.2|Astigmatism|astigmatism
H52.4|Presbyopia|presbyopia
H52.7|Disorder of refraction, unspecified|refractive error,error of refraction
H57.1|Ocular pain|eye pain,ocular pain
H60.3|Other infective otitis externa|infective otitis externa,swimmer's ear
H60.9|Otitis externa, unspecified|otitis externa,outer ear infection
H61.2|Impacted cerumen|impacted cerumen,ear wax,earwax,wax impaction,impacted wax,cerumen
H65.0|Acute serous otitis media|acute serous otitis media
H65.9|Nonsuppurative otitis media, unspecified|otitis media with effusion,serous otitis media,glue ear,secretory otitis media
H66.0|Acute suppurative otitis media|acute suppurative otitis media,asom
H66.1|Chronic tubotympanic suppurative otitis media|chronic suppurative otitis media,csom,tubotympanic csom
H66.9|Otitis media, unspecified|otitis media,middle ear infection,ear infection,acute otitis media,aom,acute middle ear infection,acute ear infection
H68.1|Obstruction of Eustachian tube|eustachian tube blockage,blocked eustachian tube
H69.8|Other specified disorders of Eustachian tube|eustachian tube dysfunction,etd
H72.9|Perforation of tympanic membrane, unspecified|tympanic membrane perforation,perforated eardrum,ear drum perforation
H81.0|Ménière disease|meniere's disease,meniere disease,menieres
H81.1|Benign paroxysmal vertigo|bppv,benign paroxysmal positional vertigo,positional vertigo
H81.3|Other peripheral vertigo|peripheral vertigo
H81.2|Vestibular neuronitis|vestibular neuritis,vestibular neuronitis,labyrinthitis
H90.5|Sensorineural hearing loss, unspecified|sensorineural hearing loss,snhl,nerve deafness
H90.2|Conductive hearing loss, unspecified|conductive hearing loss
H91.1|Presbycusis|presbycusis,age related hearing loss
H91.9|Hearing loss, unspecified|hearing loss,deafness,reduced hearing,decreased hearing
H92.0|Otalgia|otalgia,ear pain,earache,ear ache
H92.1|Otorrhoea|otorrhoea,otorrhea,ear discharge
H93.1|Tinnitus|tinnitus,ringing in ears
I00|Rheumatic fever without mention of heart involvement|rheumatic fever,acute rheumatic fever
I05.0|Mitral stenosis|mitral stenosis,rheumatic mitral stenosis
I09.9|Rheumatic heart disease, unspecified|rheumatic heart disease,rhd
I10|Essential (primary) hypertension|hypertension,essential hypertension,primary hypertension,high blood pressure,htn,hypertensive,high bp,raised blood pressure,uncontrolled hypertension
I11.9|Hypertensive heart disease without (congestive) heart failure|hypertensive heart disease
I12.9|Hypertensive renal disease without renal failure|hypertensive nephropathy,hypertensive kidney disease
I15.9|Secondary hypertension, unspecified|secondary hypertension
I20.0|Unstable angina|unstable angina
I20.9|Angina pectoris, unspecified|angina,angina pectoris,stable angina,chronic stable angina,effort angina
I21.0|Acute transmural myocardial infarction of anterior wall|acute anterior wall myocardial infarction,acute anterior wall mi,acute anterior wall stemi
I21.1|Acute transmural myocardial infarction of inferior wall|acute inferior wall myocardial infarction,acute inferior wall mi,acute inferior wall stemi
I21.4|Acute subendocardial myocardial infarction|nstemi,non st elevation myocardial infarction
I21.9|Acute myocardial infarction, unspecified|acute myocardial infarction,myocardial infarction,heart attack,acute mi,mi,stemi
I25.1|Atherosclerotic heart disease|coronary artery disease,cad,ischaemic heart disease,ischemic heart disease,ihd,atherosclerotic heart disease,coronary heart disease,triple vessel disease,double vessel disease,single vessel disease
I25.2|Old myocardial infarction|old myocardial infarction,old mi,healed myocardial infarction,past myocardial infarction,old anterior wall myocardial infarction,old inferior wall myocardial infarction,previous myocardial infarction,post myocardial infarction,old anterior wall mi,old inferior wall mi,old lateral wall mi,old posterior wall mi
I25.5|Ischaemic cardiomyopathy|ischaemic cardiomyopathy,ischemic cardiomyopathy
I26.9|Pulmonary embolism without mention of acute cor pulmonale|pulmonary embolism,pulmonary thromboembolism
I27.0|Primary pulmonary hypertension|pulmonary hypertension,pulmonary arterial hypertension
I31.9|Disease of pericardium, unspecified|pericardial effusion,pericarditis
I34.0|Mitral (valve) insufficiency|mitral regurgitation,mitral insufficiency
I34.1|Mitral (valve) prolapse|mitral valve prolapse,mvp
I35.0|Aortic (valve) stenosis|aortic stenosis
I35.1|Aortic (valve) insufficiency|aortic regurgitation,aortic insufficiency
I42.9|Cardiomyopathy, unspecified|cardiomyopathy,dilated cardiomyopathy
I47.1|Supraventricular tachycardia|supraventricular tachycardia,svt,psvt
I48.9|Atrial fibrillation and atrial flutter, unspecified|atrial fibrillation,af,afib,atrial flutter
I49.9|Cardiac arrhythmia, unspecified|arrhythmia,cardiac arrhythmia,irregular heartbeat
I50.0|Congestive heart failure|congestive heart failure,ccf,chf,congestive cardiac failure,systolic heart failure,acute on chronic systolic heart failure,acute on chronic heart failure,decompensated heart failure,acute decompensated heart failure
I50.9|Heart failure, unspecified|heart failure,cardiac failure,hfref,hfpef
I51.7|Cardiomegaly|cardiomegaly,enlarged heart
I63.9|Cerebral infarction, unspecified|cerebral infarction,ischaemic stroke,ischemic stroke,cva infarct
I64|Stroke, not specified as haemorrhage or infarction|stroke,cva,cerebrovascular accident,brain stroke,paralysis stroke
I69.4|Sequelae of stroke, not specified as haemorrhage or infarction|old stroke,post stroke,sequelae of stroke,old cva,hemiplegia after stroke
I70.2|Atherosclerosis of arteries of extremities|peripheral arterial disease,pad,peripheral artery disease,atherosclerosis of legs
I73.9|Peripheral vascular disease, unspecified|peripheral vascular disease,pvd,intermittent claudication,claudication
I73.0|Raynaud syndrome|raynaud's phenomenon,raynaud phenomenon,raynaud's disease
I80.2|Phlebitis and thrombophlebitis of other deep vessels of lower extremities|deep vein thrombosis,deep venous thrombosis,dvt,popliteal vein thrombosis,femoral vein thrombosis,calf vein thrombosis
I80.3|Phlebitis and thrombophlebitis of lower extremities, unspecified|thrombophlebitis,superficial thrombophlebitis,phlebitis
I83.9|Varicose veins of lower extremities without ulcer or inflammation|varicose veins,varicose vein,varicosities
I83.0|Varicose veins of lower extremities with ulcer|varicose ulcer,venous ulcer
I87.2|Venous insufficiency (chronic)(peripheral)|chronic venous insufficiency,venous insufficiency
I89.0|Lymphoedema, not elsewhere classified|lymphoedema,lymphedema
I88.9|Nonspecific lymphadenitis, unspecified|lymphadenitis,lymph node infection
I95.1|Orthostatic hypotension|orthostatic hypotension,postural hypotension
I95.9|Hypotension, unspecified|hypotension,low blood pressure,low bp
J00|Acute nasopharyngitis [common cold]|acute nasopharyngitis,common cold,cold,coryza,nasopharyngitis,acute coryza,head cold
J01.0|Acute maxillary sinusitis|acute maxillary sinusitis,acute bacterial maxillary sinusitis,maxillary sinusitis
J01.1|Acute frontal sinusitis|acute frontal sinusitis,frontal sinusitis
J01.9|Acute sinusitis, unspecified|acute sinusitis,sinusitis,acute rhinosinusitis,acute bacterial sinusitis,sinus infection
J02.0|Streptococcal pharyngitis|streptococcal pharyngitis,strep throat,strep pharyngitis
J02.9|Acute pharyngitis, unspecified|acute pharyngitis,pharyngitis,sore throat,throat infection,viral pharyngitis
J03.0|Streptococcal tonsillitis|streptococcal tonsillitis,strep tonsillitis
J03.9|Acute tonsillitis, unspecified|acute tonsillitis,tonsillitis,tonsillopharyngitis,acute tonsillopharyngitis
J04.0|Acute laryngitis|acute laryngitis,laryngitis
J04.1|Acute tracheitis|acute tracheitis,tracheitis
J05.0|Acute obstructive laryngitis [croup]|croup,acute obstructive laryngitis,laryngotracheobronchitis,viral croup,mild croup
J06.9|Acute upper respiratory infection, unspecified|acute upper respiratory infection,upper respiratory infection,upper respiratory tract infection,urti,uri,acute urti,viral urti
J10.1|Influenza with other respiratory manifestations, seasonal influenza virus identified|influenza a,influenza b,influenza a infection,h3n2 influenza,confirmed influenza
J11.1|Influenza with other respiratory manifestations, virus not identified|influenza,flu,influenza like illness,ili,seasonal flu
J09|Influenza due to identified zoonotic or pandemic influenza virus|h1n1,swine flu,avian influenza,bird flu
J12.9|Viral pneumonia, unspecified|viral pneumonia
J15.9|Bacterial pneumonia, unspecified|bacterial pneumonia
J18.9|Pneumonia, unspecified|pneumonia,community acquired pneumonia,chest infection,lower respiratory tract infection pneumonia,bronchopneumonia
J20.9|Acute bronchitis, unspecified|acute bronchitis,bronchitis acute,chest cold
J21.9|Acute bronchiolitis, unspecified|bronchiolitis,acute bronchiolitis
J22|Unspecified acute lower respiratory infection|lower respiratory tract infection,lrti,acute lower respiratory infection
J30.1|Allergic rhinitis due to pollen|hay fever,pollen allergy,seasonal allergic rhinitis
J30.4|Allergic rhinitis, unspecified|allergic rhinitis,nasal allergy,rhinitis allergic,perennial allergic rhinitis,dust allergy
J31.0|Chronic rhinitis|chronic rhinitis,rhinitis,vasomotor rhinitis
J32.9|Chronic sinusitis, unspecified|chronic sinusitis,chronic rhinosinusitis
J33.9|Nasal polyp, unspecified|nasal polyp,nasal polyps,nasal polyposis
J34.2|Deviated nasal septum|deviated nasal septum,dns,deviated septum
J34.3|Hypertrophy of nasal turbinates|turbinate hypertrophy,inferior turbinate hypertrophy
J35.0|Chronic tonsillitis|chronic tonsillitis,recurrent tonsillitis
J35.2|Hypertrophy of adenoids|adenoid hypertrophy,enlarged adenoids,adenoids
J35.3|Hypertrophy of tonsils with hypertrophy of adenoids|adenotonsillar hypertrophy,enlarged tonsils and adenoids
J37.0|Chronic laryngitis|chronic laryngitis
J38.2|Nodules of vocal cords|vocal cord nodules,singer's nodules,vocal nodules
J39.2|Other diseases of pharynx|chronic pharyngitis granular,pharyngeal disease
J31.2|Chronic pharyngitis|chronic pharyngitis
J40|Bronchitis, not specified as acute or chronic|bronchitis,tracheobronchitis
J42|Unspecified chronic bronchitis|chronic bronchitis
J43.9|Emphysema, unspecified|emphysema
J44.1|Chronic obstructive pulmonary disease with acute exacerbation, unspecified|acute exacerbation of copd,copd exacerbation,aecopd,exacerbation of copd
J44.9|Chronic obstructive pulmonary disease, unspecified|copd,chronic obstructive pulmonary disease,chronic obstructive airway disease,coad
J45.0|Predominantly allergic asthma|allergic asthma,extrinsic asthma
J45.9|Asthma, unspecified|asthma,bronchial asthma,asthmatic,reactive airway disease,wheezing disorder,acute asthma,asthma exacerbation,acute exacerbation of asthma
J46|Status asthmaticus|status asthmaticus,acute severe asthma
J47|Bronchiectasis|bronchiectasis
J84.1|Other interstitial pulmonary diseases with fibrosis|pulmonary fibrosis,interstitial lung disease,ild
J90|Pleural effusion, not elsewhere classified|pleural effusion
J93.9|Pneumothorax, unspecified|pneumothorax
K00.7|Teething syndrome|teething
K02.9|Dental caries, unspecified|dental caries,tooth decay,cavity,caries,dental cavity
K04.0|Pulpitis|pulpitis
K04.7|Periapical abscess without sinus|dental abscess,tooth abscess,periapical abscess
K05.0|Acute gingivitis|acute gingivitis,gingivitis
K05.1|Chronic gingivitis|chronic gingivitis,bleeding gums
K05.3|Chronic periodontitis|periodontitis,chronic periodontitis,pyorrhoea,gum disease
K07.6|Temporomandibular joint disorders|temporomandibular joint disorder,tmj disorder,tmj pain
K08.8|Other specified disorders of teeth and supporting structures|toothache,tooth pain,dental pain
K11.2|Sialoadenitis|sialadenitis,parotitis
K12.0|Recurrent oral aphthae|aphthous ulcer,aphthous ulcers,mouth ulcer,mouth ulcers,oral ulcers,canker sore,aphthous stomatitis
K12.1|Other forms of stomatitis|stomatitis
K13.0|Diseases of lips|angular cheilitis,cheilitis,angular stomatitis
K13.2|Leukoplakia and other disturbances of oral epithelium, including tongue|leukoplakia,oral leukoplakia
K14.0|Glossitis|glossitis
K20|Oesophagitis|oesophagitis,esophagitis
K21.0|Gastro-oesophageal reflux disease with oesophagitis|reflux oesophagitis,reflux esophagitis,erosive esophagitis
K21.9|Gastro-oesophageal reflux disease without oesophagitis|gastro oesophageal reflux disease,gastroesophageal reflux disease,gerd,gord,acid reflux,reflux,gastro oesophageal reflux,gastroesophageal reflux,acid peptic disease,apd,hyperacidity,acidity
K22.0|Achalasia of cardia|achalasia
K25.9|Gastric ulcer, unspecified as acute or chronic, without haemorrhage or perforation|gastric ulcer,stomach ulcer
K26.9|Duodenal ulcer, unspecified as acute or chronic, without haemorrhage or perforation|duodenal ulcer
K27.9|Peptic ulcer, site unspecified, unspecified as acute or chronic, without haemorrhage or perforation|peptic ulcer,peptic ulcer disease,pud,ulcer
K29.0|Acute haemorrhagic gastritis|acute haemorrhagic gastritis,erosive gastritis
K29.1|Other acute gastritis|acute gastritis
K29.5|Chronic gastritis, unspecified|chronic gastritis
K29.7|Gastritis, unspecified|gastritis,antral gastritis
K29.9|Gastroduodenitis, unspecified|gastroduodenitis
K30|Functional dyspepsia|dyspepsia,functional dyspepsia,indigestion,non ulcer dyspepsia
K31.8|Other specified diseases of stomach and duodenum|gastroparesis
K35.8|Acute appendicitis, other and unspecified|acute appendicitis,appendicitis
K40.9|Unilateral or unspecified inguinal hernia, without obstruction or gangrene|inguinal hernia,hernia,groin hernia
K42.9|Umbilical hernia without obstruction or gangrene|umbilical hernia,paraumbilical hernia
K43.9|Ventral hernia without obstruction or gangrene|ventral hernia,incisional hernia,epigastric hernia
K44.9|Diaphragmatic hernia without obstruction or gangrene|hiatus hernia,hiatal hernia
K50.9|Crohn disease, unspecified|crohn's disease,crohn disease
K51.9|Ulcerative colitis, unspecified|ulcerative colitis
K52.9|Noninfective gastroenteritis and colitis, unspecified|noninfective gastroenteritis,colitis,non infective colitis
K57.3|Diverticular disease of large intestine without perforation or abscess|diverticulosis,diverticular disease,diverticulitis
K58.0|Irritable bowel syndrome with diarrhoea|irritable bowel syndrome with diarrhoea,ibs d,ibs with diarrhea
K58.9|Irritable bowel syndrome without diarrhoea|irritable bowel syndrome,ibs,spastic colon
K59.0|Constipation|constipation,chronic constipation,functional constipation
K59.1|Functional diarrhoea|functional diarrhoea,functional diarrhea
K60.2|Anal fissure, unspecified|anal fissure,fissure in ano,fissure
K60.3|Anal fistula|anal fistula,fistula in ano,fistula
K61.0|Anal abscess|perianal abscess,anal abscess
K62.5|Haemorrhage of anus and rectum|rectal bleeding,bleeding per rectum,bleeding pr
K64.9|Haemorrhoids, unspecified|haemorrhoids,hemorrhoids,piles,bleeding piles
K70.0|Alcoholic fatty liver|alcoholic fatty liver
K70.1|Alcoholic hepatitis|alcoholic hepatitis
K70.3|Alcoholic cirrhosis of liver|alcoholic cirrhosis,alcoholic liver disease,alcoholic liver cirrhosis
K74.6|Other and unspecified cirrhosis of liver|cirrhosis,liver cirrhosis,cirrhosis of liver,chronic liver disease,cld
K75.9|Inflammatory liver disease, unspecified|hepatitis unspecified
K76.0|Fatty (change of) liver, not elsewhere classified|fatty liver,non alcoholic fatty liver disease,nafld,hepatic steatosis,grade 1 fatty liver,mafld
K80.2|Calculus of gallbladder without cholecystitis|gallstones,cholelithiasis,gall bladder stones,gallbladder stones,gall stone
K81.0|Acute cholecystitis|acute cholecystitis
K81.1|Chronic cholecystitis|chronic cholecystitis,cholecystitis
K85.9|Acute pancreatitis, unspecified|acute pancreatitis,pancreatitis
K86.1|Other chronic pancreatitis|chronic pancreatitis
K90.0|Coeliac disease|coeliac disease,celiac disease,gluten enteropathy
K92.1|Melaena|melaena,melena,black stools
K92.2|Gastrointestinal haemorrhage, unspecified|gastrointestinal bleeding,gi bleed,upper gi bleed
L01.0|Impetigo [any organism] [any site]|impetigo
L01.1|Impetiginization of other dermatoses|impetiginisation,impetiginization,impetiginised scabies,infected scabies,secondarily infected scabies,secondary bacterial infection of scabies,infected eczema,impetiginised eczema
L02.9|Cutaneous abscess, furuncle and carbuncle, unspecified|abscess,skin abscess,boil,furuncle,furunculosis,carbuncle
L03.1|Cellulitis of other parts of limb|cellulitis of leg,cellulitis leg,leg cellulitis,cellulitis of lower leg,cellulitis of lower limb,lower limb cellulitis,cellulitis of arm,cellulitis of forearm,cellulitis of upper limb,cellulitis of foot,cellulitis of thigh,cellulitis of hand
L03.9|Cellulitis, unspecified|cellulitis
L05.9|Pilonidal cyst without abscess|pilonidal sinus,pilonidal cyst
L08.0|Pyoderma|pyoderma,skin infection,secondary bacterial infection of skin
L08.9|Local infection of skin and subcutaneous tissue, unspecified|infected wound,wound infection,paronychia
L20.9|Atopic dermatitis, unspecified|atopic dermatitis,atopic eczema,infantile eczema
L21.0|Seborrhoea capitis|dandruff,seborrhoea capitis,pityriasis capitis
L21.1|Seborrhoeic infantile dermatitis|cradle cap,infantile seborrhoeic dermatitis
L21.9|Seborrhoeic dermatitis, unspecified|seborrhoeic dermatitis,seborrheic dermatitis
L22|Diaper [napkin] dermatitis|diaper rash,nappy rash,diaper dermatitis,napkin dermatitis
L23.9|Allergic contact dermatitis, unspecified cause|allergic contact dermatitis
L24.9|Irritant contact dermatitis, unspecified cause|irritant contact dermatitis,irritant dermatitis
L25.9|Unspecified contact dermatitis, unspecified cause|contact dermatitis
L27.0|Generalized skin eruption due to drugs and medicaments|drug rash,drug eruption,drug allergy rash
L28.0|Lichen simplex chronicus|lichen simplex chronicus,neurodermatitis
L29.9|Pruritus, unspecified|pruritus,itching,generalised itching,itchy skin
L30.9|Dermatitis, unspecified|dermatitis,eczema,skin allergy
L30.3|Infective dermatitis|infective dermatitis,infected eczema
L40.0|Psoriasis vulgaris|psoriasis vulgaris,plaque psoriasis,chronic plaque psoriasis
L40.9|Psoriasis, unspecified|psoriasis
L42|Pityriasis rosea|pityriasis rosea
L43.9|Lichen planus, unspecified|lichen planus
L50.0|Allergic urticaria|allergic urticaria
L50.9|Urticaria, unspecified|urticaria,hives,chronic urticaria,acute urticaria,skin allergy urticaria
L51.9|Erythema multiforme, unspecified|erythema multiforme
L53.9|Erythematous condition, unspecified|erythema
L55.9|Sunburn, unspecified|sunburn
L56.4|Polymorphous light eruption|polymorphous light eruption,photodermatitis,sun allergy
L57.0|Actinic keratosis|actinic keratosis,solar keratosis
L60.0|Ingrowing nail|ingrown toenail,ingrowing nail,ingrown nail
L63.9|Alopecia areata, unspecified|alopecia areata,patchy hair loss
L64.9|Androgenic alopecia, unspecified|androgenetic alopecia,male pattern baldness,female pattern hair loss,androgenic alopecia
L65.9|Nonscarring hair loss, unspecified|hair loss,hair fall,telogen effluvium,alopecia
L66.9|Cicatricial alopecia, unspecified|scarring alopecia
L70.0|Acne vulgaris|acne,acne vulgaris,pimples
L71.9|Rosacea, unspecified|rosacea
L72.0|Epidermal cyst|epidermal cyst,sebaceous cyst,epidermoid cyst
L73.2|Hidradenitis suppurativa|hidradenitis suppurativa
L74.0|Miliaria rubra|prickly heat,miliaria,heat rash
L80|Vitiligo|vitiligo,leucoderma,leukoderma
L81.0|Postinflammatory hyperpigmentation|post inflammatory hyperpigmentation,hyperpigmentation
L81.1|Chloasma|melasma,chloasma
L82|Seborrhoeic keratosis|seborrhoeic keratosis,seborrheic keratosis
L84|Corns and callosities|corn,corns,callus,callosity
L85.3|Xerosis cutis|xerosis,dry skin,xerosis cutis
L89.9|Decubitus ulcer and pressure area, unspecified|bed sore,pressure ulcer,decubitus ulcer
L91.0|Hypertrophic scar|keloid,hypertrophic scar
L97|Ulcer of lower limb, not elsewhere classified|leg ulcer,ulcer of lower limb,non healing ulcer
L98.0|Pyogenic granuloma|pyogenic granuloma
M05.9|Seropositive rheumatoid arthritis, unspecified|seropositive rheumatoid arthritis
M06.9|Rheumatoid arthritis, unspecified|rheumatoid arthritis,ra
M08.0|Juvenile rheumatoid arthritis|juvenile idiopathic arthritis,juvenile rheumatoid arthritis
M10.9|Gout, unspecified|gout,gouty arthritis,acute gout
M13.9|Arthritis, unspecified|arthritis,polyarthritis,inflammatory arthritis
M15.0|Primary generalized (osteo)arthrosis|generalised osteoarthritis,primary generalized osteoarthritis
M16.9|Coxarthrosis, unspecified|osteoarthritis hip,hip osteoarthritis,osteoarthritis of hip
M17.0|Primary gonarthrosis, bilateral|bilateral knee osteoarthritis,osteoarthritis of both knees,bilateral osteoarthritis knees,primary osteoarthritis of both knees,bilateral primary osteoarthritis of knees,osteoarthritis both knees,bilateral knee oa,oa both knees
M17.9|Gonarthrosis, unspecified|knee osteoarthritis,osteoarthritis knee,osteoarthritis of knee,oa knee,gonarthrosis
M19.9|Arthrosis, unspecified|osteoarthritis,osteoarthrosis,degenerative joint disease,oa
M20.1|Hallux valgus (acquired)|hallux valgus,bunion
M21.4|Flat foot [pes planus] (acquired)|flat foot,flat feet,pes planus
M22.4|Chondromalacia patellae|chondromalacia patellae,patellofemoral pain syndrome,anterior knee pain
M23.2|Derangement of meniscus due to old tear or injury|meniscal tear old,degenerative meniscal tear
M25.5|Pain in joint|joint pain,arthralgia,knee pain,shoulder pain,hip pain,ankle pain,wrist pain,elbow pain,joint pains
M25.4|Effusion of joint|joint effusion,knee effusion
M32.9|Systemic lupus erythematosus, unspecified|systemic lupus erythematosus,sle,lupus
M35.3|Polymyalgia rheumatica|polymyalgia rheumatica
M41.9|Scoliosis, unspecified|scoliosis
M43.1|Spondylolisthesis|spondylolisthesis
M45|Ankylosing spondylitis|ankylosing spondylitis
M47.9|Spondylosis, unspecified|spondylosis,degenerative spine disease
M47.8|Other spondylosis|cervical spondylosis,lumbar spondylosis,lumbar spondylosis without radiculopathy
M48.0|Spinal stenosis|spinal stenosis,lumbar canal stenosis,lumbar spinal stenosis
M50.1|Cervical disc disorder with radiculopathy|cervical disc prolapse,cervical disc herniation,cervical disc disease
M51.1|Lumbar and other intervertebral disc disorders with radiculopathy|lumbar disc prolapse with radiculopathy,prolapsed intervertebral disc,pivd,lumbar disc herniation,slipped disc,disc prolapse,herniated disc
M51.3|Other specified intervertebral disc degeneration|degenerative disc disease,disc degeneration
M53.1|Cervicobrachial syndrome|cervicobrachial syndrome,cervicobrachial neuralgia
M53.3|Sacrococcygeal disorders, not elsewhere classified|coccydynia,coccygodynia,tailbone pain
M54.1|Radiculopathy|radiculopathy,lumbar radiculopathy
M54.2|Cervicalgia|cervicalgia,neck pain,mechanical neck pain,neck sprain pain,cervical pain,neck ache
M54.3|Sciatica|sciatica
M54.4|Lumbago with sciatica|lumbago with sciatica,low back pain with sciatica,low backache with sciatica
M54.5|Low back pain|low back pain,lumbago,backache,back pain,lower back pain,low backache,mechanical low back pain,lumbar pain
M54.6|Pain in thoracic spine|thoracic back pain,upper back pain,dorsal back pain,pain in thoracic spine
M54.9|Dorsalgia, unspecified|dorsalgia
M60.9|Myositis, unspecified|myositis
M62.6|Muscle strain|muscle strain,muscle pull,pulled muscle
M62.8|Other specified disorders of muscle|muscle spasm,muscle weakness
M65.3|Trigger finger|trigger finger,trigger thumb
M65.4|Radial styloid tenosynovitis [de Quervain]|de quervain's tenosynovitis,de quervain tenosynovitis
M65.9|Synovitis and tenosynovitis, unspecified|tenosynovitis,synovitis
M67.4|Ganglion|ganglion,ganglion cyst
M70.2|Olecranon bursitis|olecranon bursitis
M70.4|Prepatellar bursitis|prepatellar bursitis,housemaid's knee
M70.6|Trochanteric bursitis|trochanteric bursitis
M71.9|Bursopathy, unspecified|bursitis
M72.2|Plantar fascial fibromatosis|plantar fasciitis,plantar fasciopathy,policeman's heel,heel pain syndrome,calcaneal spur
M75.0|Adhesive capsulitis of shoulder|frozen shoulder,adhesive capsulitis,periarthritis shoulder
M75.1|Rotator cuff syndrome|rotator cuff syndrome,rotator cuff tendinitis,rotator cuff tear,supraspinatus tendinitis
M75.4|Impingement syndrome of shoulder|shoulder impingement,impingement syndrome
M76.6|Achilles tendinitis|achilles tendinitis,achilles tendonitis
M77.0|Medial epicondylitis|medial epicondylitis,golfer's elbow
M77.1|Lateral epicondylitis|lateral epicondylitis,tennis elbow
M77.9|Enthesopathy, unspecified|tendinitis,tendonitis,enthesopathy
M79.0|Rheumatism, unspecified|rheumatism
M79.1|Myalgia|myalgia,body aches,body ache,muscle pain,muscle aches
M79.2|Neuralgia and neuritis, unspecified|neuralgia,neuritis
M79.6|Pain in limb|pain in limb,leg pain,arm pain,limb pain,calf pain
M79.7|Fibromyalgia|fibromyalgia,fibrositis
M81.0|Postmenopausal osteoporosis|postmenopausal osteoporosis,post menopausal osteoporosis
M81.9|Osteoporosis, unspecified|osteoporosis,senile osteoporosis
M83.9|Adult osteomalacia, unspecified|osteomalacia
M85.8|Other specified disorders of bone density and structure|osteopenia
M86.9|Osteomyelitis, unspecified|osteomyelitis
M92.5|Juvenile osteochondrosis of tibia and fibula|osgood schlatter disease,osgood-schlatter
N00.9|Acute nephritic syndrome|acute nephritic syndrome,acute glomerulonephritis,post streptococcal glomerulonephritis
N04.9|Nephrotic syndrome|nephrotic syndrome
N10|Acute tubulo-interstitial nephritis|acute pyelonephritis,pyelonephritis,kidney infection
N13.3|Other and unspecified hydronephrosis|hydronephrosis
N17.9|Acute renal failure, unspecified|acute kidney injury,aki,acute renal failure
N18.1|Chronic kidney disease, stage 1|chronic kidney disease stage 1,ckd stage 1
N18.2|Chronic kidney disease, stage 2|chronic kidney disease stage 2,ckd stage 2
N18.3|Chronic kidney disease, stage 3|chronic kidney disease stage 3,ckd stage 3,chronic kidney disease stage 3a,chronic kidney disease stage 3b,ckd stage 3a,ckd stage 3b
N18.4|Chronic kidney disease, stage 4|chronic kidney disease stage 4,ckd stage 4
N18.9|Chronic kidney disease, unspecified|chronic kidney disease,ckd,chronic renal failure,crf,chronic renal disease
N18.5|Chronic kidney disease, stage 5|ckd stage 5,end stage renal disease,esrd,chronic kidney disease stage 5
N20.0|Calculus of kidney|kidney stone,renal stone,renal calculus,nephrolithiasis,kidney stones,renal calculi
N20.1|Calculus of ureter|ureteric stone,ureteric calculus,ureterolithiasis
N20.9|Urinary calculus, unspecified|urolithiasis,urinary stone,urinary calculus,stone disease
N23|Unspecified renal colic|renal colic,ureteric colic
N28.1|Cyst of kidney, acquired|renal cyst,kidney cyst
N30.0|Acute cystitis|acute cystitis,cystitis,bladder infection
N31.9|Neuromuscular dysfunction of bladder, unspecified|neurogenic bladder
N32.8|Other specified disorders of bladder|overactive bladder
N34.1|Nonspecific urethritis|urethritis,nonspecific urethritis
N35.9|Urethral stricture, unspecified|urethral stricture
N39.0|Urinary tract infection, site not specified|urinary tract infection,uti,urine infection,lower urinary tract infection,cystitis uti
N39.3|Stress incontinence|stress incontinence,stress urinary incontinence
N40|Hyperplasia of prostate|benign prostatic hyperplasia,bph,enlarged prostate,prostatomegaly,benign prostatic hypertrophy,prostate enlargement,enlarged prostate gland,prostatic enlargement,prostatic hypertrophy
N41.0|Acute prostatitis|acute prostatitis,prostatitis
N41.1|Chronic prostatitis|chronic prostatitis
N43.3|Hydrocele, unspecified|hydrocele
N44|Torsion of testis|testicular torsion,torsion testis
N45.9|Orchitis, epididymitis and epididymo-orchitis without abscess|epididymo orchitis,epididymitis,orchitis
N46|Male infertility|male infertility,oligospermia,azoospermia
N47|Redundant prepuce, phimosis and paraphimosis|phimosis,paraphimosis
N48.1|Balanoposthitis|balanoposthitis,balanitis
N48.4|Impotence of organic origin|erectile dysfunction,impotence
N60.1|Diffuse cystic mastopathy|fibrocystic breast disease,fibrocystic breasts,fibroadenosis
N61|Inflammatory disorders of breast|mastitis,breast abscess
N63|Unspecified lump in breast|breast lump,lump in breast
N64.4|Mastodynia|mastalgia,breast pain,mastodynia
N70.9|Salpingitis and oophoritis, unspecified|salpingitis,oophoritis
N71.9|Inflammatory disease of uterus, unspecified|endometritis
N73.9|Female pelvic inflammatory disease, unspecified|pelvic inflammatory disease,pid
N75.1|Abscess of Bartholin gland|bartholin abscess,bartholin cyst
N76.0|Acute vaginitis|vaginitis,acute vaginitis,vaginal infection,bacterial vaginosis,vulvovaginitis
N77.1|Vaginitis, vulvitis and vulvovaginitis in infectious and parasitic diseases classified elsewhere|infective vulvovaginitis
N80.9|Endometriosis, unspecified|endometriosis
N81.9|Female genital prolapse, unspecified|uterine prolapse,genital prolapse,prolapse uterus
N83.2|Other and unspecified ovarian cysts|ovarian cyst,functional ovarian cyst,simple ovarian cyst
N84.0|Polyp of corpus uteri|endometrial polyp
N85.0|Endometrial glandular hyperplasia|endometrial hyperplasia
N86|Erosion and ectropion of cervix uteri|cervical erosion,cervical ectropion
N87.9|Dysplasia of cervix uteri, unspecified|cervical dysplasia,cin
N89.8|Other specified noninflammatory disorders of vagina|leucorrhoea,leukorrhea,white discharge
N91.2|Amenorrhoea, unspecified|amenorrhoea,amenorrhea,missed periods
N91.5|Oligomenorrhoea, unspecified|oligomenorrhoea,oligomenorrhea,scanty periods,infrequent periods
N92.0|Excessive and frequent menstruation with regular cycle|menorrhagia,heavy menstrual bleeding,heavy periods
N92.1|Excessive and frequent menstruation with irregular cycle|metrorrhagia,menometrorrhagia
N92.6|Irregular menstruation, unspecified|irregular periods,irregular menstruation,irregular menses,irregular cycles
N93.9|Abnormal uterine and vaginal bleeding, unspecified|abnormal uterine bleeding,aub,dysfunctional uterine bleeding,dub
N94.3|Premenstrual tension syndrome|premenstrual syndrome,pms
N94.6|Dysmenorrhoea, unspecified|dysmenorrhoea,dysmenorrhea,painful periods,menstrual cramps
N95.0|Postmenopausal bleeding|postmenopausal bleeding
N95.1|Menopausal and female climacteric states|menopause,menopausal syndrome,perimenopause,hot flushes,menopausal symptoms
N97.9|Female infertility, unspecified|female infertility,infertility,primary infertility,secondary infertility
O03.9|Spontaneous abortion, complete or unspecified, without complication|miscarriage,spontaneous abortion,abortion
O20.0|Threatened abortion|threatened abortion,threatened miscarriage
O21.0|Mild hyperemesis gravidarum|hyperemesis gravidarum,hyperemesis
O21.9|Vomiting of pregnancy, unspecified|vomiting in pregnancy,morning sickness,nausea and vomiting of pregnancy
O13|Gestational [pregnancy-induced] hypertension|gestational hypertension,pregnancy induced hypertension,pih
O14.9|Pre-eclampsia, unspecified|pre eclampsia,preeclampsia
O23.4|Unspecified infection of urinary tract in pregnancy|uti in pregnancy,urinary tract infection in pregnancy
O24.4|Diabetes mellitus arising in pregnancy|gestational diabetes mellitus,gestational diabetes,gdm,diabetes in pregnancy
O26.9|Pregnancy-related condition, unspecified|pregnancy related condition
O36.5|Maternal care for known or suspected poor fetal growth|fetal growth restriction,iugr,intrauterine growth restriction
O47.9|False labour, unspecified|false labour,false labor,braxton hicks
O99.0|Anaemia complicating pregnancy, childbirth and the puerperium|anaemia in pregnancy,anemia in pregnancy,anaemia of pregnancy,anemia of pregnancy,iron deficiency anaemia in pregnancy,iron deficiency anemia of pregnancy,iron deficiency anaemia of pregnancy,anaemia complicating pregnancy
O00.9|Ectopic pregnancy, unspecified|ectopic pregnancy
O02.1|Missed abortion|missed abortion
O21.1|Hyperemesis gravidarum with metabolic disturbance|hyperemesis gravidarum with dehydration,hyperemesis gravidarum with ketosis,hyperemesis with dehydration,hyperemesis gravidarum with electrolyte imbalance
O91.2|Nonpurulent mastitis associated with childbirth|lactational mastitis
O92.7|Other and unspecified disorders of lactation|lactation failure,insufficient lactation,low milk supply
P59.9|Neonatal jaundice, unspecified|neonatal jaundice,physiological jaundice,newborn jaundice
P83.1|Neonatal erythema toxicum|erythema toxicum
P92.9|Feeding problem of newborn, unspecified|feeding problem newborn,poor feeding newborn
Q21.0|Ventricular septal defect|ventricular septal defect,vsd
Q21.1|Atrial septal defect|atrial septal defect,asd heart
Q35.9|Cleft palate, unspecified|cleft palate
Q38.1|Ankyloglossia|tongue tie,ankyloglossia
Q53.9|Undescended testicle, unspecified|undescended testis,undescended testicle,cryptorchidism
Q66.0|Talipes equinovarus|club foot,clubfoot,ctev
Q90.9|Down syndrome, unspecified|down syndrome,down's syndrome,trisomy 21
R00.0|Tachycardia, unspecified|tachycardia
R00.1|Bradycardia, unspecified|bradycardia
R00.2|Palpitations|palpitations,palpitation
R01.1|Cardiac murmur, unspecified|heart murmur,cardiac murmur,murmur
R03.0|Elevated blood-pressure reading, without diagnosis of hypertension|elevated blood pressure,raised blood pressure reading,white coat hypertension
R04.0|Epistaxis|epistaxis,nosebleed,nose bleed,bleeding from nose
R04.2|Haemoptysis|haemoptysis,hemoptysis,coughing blood
R05|Cough|cough,chronic cough,dry cough,productive cough,persistent cough
R06.0|Dyspnoea|dyspnoea,dyspnea,breathlessness,shortness of breath,difficulty breathing
R06.2|Wheezing|wheezing,wheeze
R06.1|Stridor|stridor
R07.0|Pain in throat|throat pain,pain in throat
R07.4|Chest pain, unspecified|chest pain,atypical chest pain,non cardiac chest pain
R07.3|Other chest pain|chest wall pain,musculoskeletal chest pain,costochondritis
R10.1|Pain localized to upper abdomen|epigastric pain,upper abdominal pain,epigastric discomfort
R10.3|Pain localized to other parts of lower abdomen|lower abdominal pain,suprapubic pain,pelvic pain,iliac fossa pain
R10.4|Other and unspecified abdominal pain|abdominal pain,pain abdomen,stomach pain,colic,infantile colic,abdominal colic,periumbilical pain
R11|Nausea and vomiting|nausea and vomiting,vomiting,nausea,emesis
R12|Heartburn|heartburn
R13|Dysphagia|dysphagia,difficulty swallowing
R14|Flatulence and related conditions|flatulence,bloating,abdominal distension
R17|Unspecified jaundice|jaundice,icterus
R18|Ascites|ascites
R19.4|Change in bowel habit|change in bowel habit,altered bowel habits
R20.2|Paraesthesia of skin|paraesthesia,paresthesia,tingling,numbness,pins and needles,tingling and numbness
R21|Rash and other nonspecific skin eruption|rash,skin rash,skin eruption
R22.9|Localized swelling, mass and lump, unspecified|lump,swelling,localized swelling,mass
R23.0|Cyanosis|cyanosis
R25.1|Tremor, unspecified|tremor,tremors
R26.8|Other and unspecified abnormalities of gait and mobility|gait abnormality,unsteady gait,difficulty walking
R29.6|Tendency to fall, not elsewhere classified|recurrent falls,tendency to fall,frequent falls,repeated falls
R30.0|Dysuria|dysuria,burning micturition,painful urination,burning urination
R31|Unspecified haematuria|haematuria,hematuria,blood in urine
R32|Unspecified urinary incontinence|urinary incontinence,incontinence of urine
R33|Retention of urine|urinary retention,retention of urine
R35|Polyuria|polyuria,frequent urination,increased frequency of urination,nocturia
R36|Urethral discharge|urethral discharge
R39.8|Other and unspecified symptoms and signs involving the urinary system|lower urinary tract symptoms,luts
R40.2|Coma, unspecified|coma,unconsciousness
R41.0|Disorientation, unspecified|confusion,disorientation,medication related confusion,drug induced confusion,anticholinergic confusion,medication induced confusion
R42|Dizziness and giddiness|dizziness,giddiness,vertigo,lightheadedness,light headedness
R43.0|Anosmia|anosmia,loss of smell
R44.3|Hallucinations, unspecified|hallucinations
R45.1|Restlessness and agitation|restlessness,agitation
R47.0|Dysphasia and aphasia|aphasia,dysphasia
R49.0|Dysphonia|dysphonia,hoarseness,hoarseness of voice,hoarse voice
R50.8|Other specified fever|persistent fever,fever with chills
R50.9|Fever, unspecified|fever,pyrexia,acute febrile illness,febrile illness,fever of unknown origin,pyrexia of unknown origin,puo,fuo,low grade fever,high grade fever,febrile
R51|Headache|headache,cephalgia,head ache
R52.9|Pain, unspecified|pain,generalised pain,body pain
R53|Malaise and fatigue|fatigue,malaise,weakness,generalised weakness,tiredness,lethargy,general debility,debility
R54|Senility|senility,old age frailty
R55|Syncope and collapse|syncope,fainting,blackout,collapse,vasovagal syncope
R56.0|Febrile convulsions|febrile seizure,febrile seizures,febrile convulsion,febrile convulsions,simple febrile seizure,complex febrile seizure,febrile fits
R56.8|Other and unspecified convulsions|seizure,seizures,convulsion,convulsions,fits
R59.0|Localized enlarged lymph nodes|lymphadenopathy,enlarged lymph nodes,swollen glands,cervical lymphadenopathy
R60.0|Localized oedema|oedema feet,pedal oedema,pedal edema,swelling of feet,ankle swelling,localized oedema
R60.9|Oedema, unspecified|oedema,edema,fluid retention
R62.0|Delayed milestone|delayed milestones,developmental delay
R62.8|Other lack of expected normal physiological development|failure to thrive,poor weight gain
R63.0|Anorexia|anorexia,loss of appetite,poor appetite,decreased appetite
R63.4|Abnormal weight loss|weight loss,abnormal weight loss,unintentional weight loss
R63.5|Abnormal weight gain|weight gain,abnormal weight gain
R64|Cachexia|cachexia
R68.8|Other specified general symptoms and signs|general symptoms
R69|Unknown and unspecified causes of morbidity|illness unspecified
R70.0|Elevated erythrocyte sedimentation rate|raised esr,elevated esr
R73.0|Abnormal glucose tolerance test|prediabetes,pre diabetes,impaired glucose tolerance,igt,impaired fasting glucose,ifg,borderline diabetes
R73.9|Hyperglycaemia, unspecified|hyperglycaemia,hyperglycemia,high blood sugar,raised blood sugar
R74.0|Elevation of levels of transaminase and lactic acid dehydrogenase [LDH]|raised liver enzymes,elevated transaminases,transaminitis,raised sgpt
R80|Isolated proteinuria|proteinuria,albuminuria,microalbuminuria
R81|Glycosuria|glycosuria
R91|Abnormal findings on diagnostic imaging of lung|lung nodule,abnormal chest x ray,pulmonary nodule
R94.3|Abnormal results of cardiovascular function studies|abnormal ecg,abnormal ekg
S00.9|Superficial injury of head, part unspecified|superficial head injury,scalp abrasion
S01.9|Open wound of head, part unspecified|head wound,scalp laceration,cut on head
S06.0|Concussion|concussion
S09.9|Unspecified injury of head|head injury,head trauma
S13.4|Sprain and strain of cervical spine|whiplash injury,whiplash,neck sprain
S33.5|Sprain and strain of lumbar spine|lumbar sprain,back sprain,lumbar ligament sprain
S39.0|Injury of muscle and tendon of abdomen, lower back and pelvis|lumbar strain,lumbar muscle strain,lumbosacral strain,back strain,acute lumbar strain,pulled back muscle
S43.4|Sprain and strain of shoulder joint|shoulder sprain
S52.5|Fracture of lower end of radius|distal radius fracture,colles fracture,colles' fracture,wrist fracture
S60.2|Contusion of other parts of wrist and hand|hand contusion,bruised hand
S61.9|Open wound of wrist and hand, part unspecified|hand laceration,cut on hand,finger cut,cut finger
S62.6|Fracture of other finger|finger fracture,fractured finger
S63.5|Sprain and strain of wrist|wrist sprain
S80.0|Contusion of knee|knee contusion,bruised knee
S81.9|Open wound of lower leg, part unspecified|leg laceration,cut on leg
S82.6|Fracture of lateral malleolus|ankle fracture,lateral malleolus fracture
S83.6|Sprain and strain of other and unspecified parts of knee|knee sprain,knee ligament sprain
S83.2|Tear of meniscus, current|meniscus tear,meniscal tear,torn meniscus
S92.3|Fracture of metatarsal bone|metatarsal fracture
S93.4|Sprain and strain of ankle|ankle sprain,sprained ankle,twisted ankle,ankle twist
T14.0|Superficial injury of unspecified body region|abrasion,superficial injury,bruise,contusion,minor injury
T14.1|Open wound of unspecified body region|laceration,cut wound,open wound,lacerated wound
T14.2|Fracture of unspecified body region|fracture
T14.3|Dislocation, sprain and strain of unspecified body region|sprain,strain
T14.9|Injury, unspecified|injury,trauma,fall injury
T15.9|Foreign body on external eye, part unspecified|foreign body in eye,foreign body eye
T16|Foreign body in ear|foreign body in ear,foreign body ear
T17.1|Foreign body in nostril|foreign body in nose,foreign body nose
T30.0|Burn of unspecified body region, unspecified degree|burn,burns,burn injury,scald
T63.0|Toxic effect of snake venom|snake bite,snakebite
T63.4|Toxic effect of venom of other arthropods|insect bite,insect sting,bee sting,wasp sting,scorpion sting
T67.0|Heatstroke and sunstroke|heat stroke,heatstroke,sunstroke
T67.5|Heat exhaustion, unspecified|heat exhaustion
T78.3|Angioneurotic oedema|angioedema,angioneurotic oedema,angioneurotic edema
T78.4|Allergy, unspecified|allergy,allergic reaction,allergic
T78.2|Anaphylactic shock, unspecified|anaphylaxis,anaphylactic shock,anaphylactic reaction
T88.7|Unspecified adverse effect of drug or medicament|adverse drug reaction,drug reaction,side effect of medication,drug allergy
T75.3|Motion sickness|motion sickness,travel sickness
W54.9|Bitten or struck by dog, unspecified place|dog bite,dog bite wound,animal bite
Z00.0|General medical examination|general medical examination,routine health check,health check up,annual physical,general check up,medical check up,fitness certificate,routine check up,routine checkup,checkup,check up,annual checkup,annual check up
Z00.1|Routine child health examination|well baby visit,routine child health examination,well child check,well baby check,well child visit,well baby check up,child health check,well child examination
Z01.4|Gynaecological examination (general)(routine)|routine gynaecological examination,pap smear screening
Z09.9|Follow-up examination after unspecified treatment for other conditions|follow up visit,routine follow up
Z20.3|Contact with and exposure to rabies|exposure to rabies,rabies exposure
Z23.5|Need for immunization against tetanus alone|tetanus immunization,tetanus prophylaxis,tetanus toxoid
Z24.2|Need for immunization against rabies|rabies vaccination,anti rabies vaccination,post exposure prophylaxis rabies
Z25.1|Need for immunization against influenza|flu vaccination,influenza vaccination,flu shot
Z27.1|Need for immunization against diphtheria-tetanus-pertussis, combined [DTP]|dpt vaccination,dtp vaccination
Z30.0|General counselling and advice on contraception|contraceptive counselling,family planning advice,contraception advice
Z30.1|Insertion of (intrauterine) contraceptive device|iud insertion,copper t insertion,iucd insertion
Z30.4|Surveillance of contraceptive drugs|oral contraceptive surveillance
Z32.1|Pregnancy confirmed|pregnancy confirmed,positive pregnancy test
Z33|Pregnant state, incidental|pregnant,pregnancy
Z34.9|Supervision of normal pregnancy, unspecified|antenatal check up,antenatal visit,normal pregnancy,routine antenatal care,anc visit,intrauterine pregnancy,single live intrauterine pregnancy,routine prenatal visit,prenatal visit,routine antenatal visit,supervision of normal pregnancy
Z35.9|Supervision of high-risk pregnancy, unspecified|high risk pregnancy
Z39.2|Routine postpartum follow-up|postnatal check up,postpartum follow up,postnatal visit
Z71.3|Dietary counselling and surveillance|dietary counselling,diet counselling
Z72.0|Tobacco use|tobacco use,smoker,smoking,tobacco chewing,current smoker
Z76.0|Issue of repeat prescription|repeat prescription,medication refill,prescription refill
Z82.4|Family history of ischaemic heart disease and other diseases of the circulatory system|family history of heart disease
Z83.3|Family history of diabetes mellitus|family history of diabetes
Z88.0|Allergy status to penicillin|penicillin allergy,allergic to penicillin
Z88.2|Allergy status to sulfonamides|sulfa allergy,sulphonamide allergy
Z95.5|Presence of coronary angioplasty implant and graft|post ptca,status post angioplasty,post angioplasty,coronary stent,post stenting
Z95.1|Presence of aortocoronary bypass graft|post cabg,status post cabg,post bypass surgery
Z96.6|Presence of orthopaedic joint implants|knee replacement status,total knee replacement,hip replacement status
U07.1|COVID-19, virus identified|covid 19,covid,coronavirus disease,sars cov 2 infection
Z34.0|Supervision of normal first pregnancy|supervision of normal first pregnancy,primigravida
Z34.8|Supervision of other normal pregnancy|supervision of other normal pregnancy,multigravida,second pregnancy supervision,normal second pregnancy,normal third pregnancy
`;

export interface IcdEntry {
  code: string;
  display: string;
  synonyms: string[];
}

export const ICD10: readonly IcdEntry[] = TABLE.trim().split('\n').map((line) => {
  const [code = '', display = '', synonyms = ''] = line.split('|');
  return { code, display, synonyms: synonyms.split(',').map((s) => s.trim()).filter(Boolean) };
});
